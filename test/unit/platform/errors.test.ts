import { describe, expect, it } from 'vitest';
import { createPlatformClient, PlatformError } from '../../../src/platform';
import { parseRetryAfter } from '../../../src/platform/errors';
import { fakeFetch } from './fake-fetch';

function client(replies: Parameters<typeof fakeFetch>[0], timeoutMs?: number) {
  const f = fakeFetch(replies);
  return createPlatformClient({ serverUrl: 'http://srv', appId: 'passage', getToken: () => null, fetch: f.fetch, originUrl: 'x', timeoutMs });
}

async function failure(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(PlatformError);
    return err as PlatformError;
  }
  throw new Error('expected the call to fail');
}

describe('PlatformError', () => {
  it('takes message and code from data.error first', async () => {
    const body = { error: { message: 'Nested', code: 'E1' }, message: 'Top', detail: 'D', code: 'E2' };
    const err = await failure(client([{ status: 400, body }]).entities('Participant').list());
    expect(err).toMatchObject({ message: 'Nested', status: 400, code: 'E1', data: body, name: 'PlatformError' });
  });

  it('falls back to message, then detail, then the transport text', async () => {
    const c = client([
      { status: 403, body: { message: 'Forbidden here', code: 'FORBIDDEN' } },
      { status: 422, body: { detail: 'Bad field' } },
      { status: 422, body: { detail: [{ loc: ['x'] }] } },
      { status: 404, body: '' },
      { status: 500, body: '<html>oops</html>' },
    ]);
    const e = c.entities('Site');
    expect(await failure(e.get('1'))).toMatchObject({ message: 'Forbidden here', code: 'FORBIDDEN', status: 403 });
    expect(await failure(e.get('2'))).toMatchObject({ message: 'Bad field', code: undefined });
    // The SDK turns a non-string detail into "[object Object]"; callers see the same.
    expect((await failure(e.get('3'))).message).toBe('[object Object]');
    expect(await failure(e.get('4'))).toMatchObject({ message: 'Request failed with status code 404', status: 404, data: undefined });
    expect(await failure(e.get('5'))).toMatchObject({ message: 'Request failed with status code 500', data: '<html>oops</html>' });
  });

  it('reads the connector error header as a last code and Retry-After seconds', async () => {
    const err = await failure(
      client([{ status: 429, body: {}, headers: { 'x-base44-connector-error': 'RATE', 'retry-after': '12' } }]).entities('Site').list(),
    );
    expect(err.code).toBe('RATE');
    expect(err.retryAfterSeconds).toBe(12);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });

  it('a transport failure has no status and keeps the transport message', async () => {
    const err = await failure(client([new TypeError('fetch failed')]).entities('Site').list());
    expect(err).toMatchObject({ message: 'fetch failed', status: undefined, code: 'NETWORK_ERROR' });
    expect(err.isTransport).toBe(true);
  });

  it('a hung request is aborted after the timeout with code TIMEOUT', async () => {
    const started = Date.now();
    const err = await failure(client(['hang'], 50).entities('Site').list());
    expect(err).toMatchObject({ status: undefined, code: 'TIMEOUT', message: 'Request timed out after 0.05 s' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('the default timeout is 30 s', async () => {
    const { DEFAULT_TIMEOUT_MS } = await import('../../../src/platform');
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
  });

  it('toJSON gives name, message, status, code and data', () => {
    const e = new PlatformError('m', { status: 409, code: 'C', data: { a: 1 } });
    expect(JSON.parse(JSON.stringify(e))).toEqual({ name: 'PlatformError', message: 'm', status: 409, code: 'C', data: { a: 1 } });
  });
});
