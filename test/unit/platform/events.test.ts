/**
 * The change stream's client (issue #24.2, src/platform/events.ts): a streaming fetch with the
 * token in the Authorization header (never the URL), messages as they arrive, PlatformErrors on
 * refusal like every other call.
 */
import { describe, expect, it } from 'vitest';
import { createPlatformClient, PlatformError } from '../../../src/platform';
import type { SseMessage } from '../../../src/platform/sse-parser';
import { fakeFetch } from './fake-fetch';

const config = (fetch: typeof globalThis.fetch, answers: number[] = []) =>
  createPlatformClient({ serverUrl: 'https://passage.example.org/', appId: 'passage', getToken: () => 'tok-123', fetch, onAnswer: (a) => answers.push(a.status) });

/** A body the test feeds chunk by chunk. */
function pushedBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return { body, send: (text: string) => controller.enqueue(encoder.encode(text)), end: () => controller.close() };
}

describe('the change stream client', () => {
  it('opens with the bearer token in a header and yields messages as they arrive', async () => {
    const pushed = pushedBody();
    let seen: RequestInit | undefined;
    let url = '';
    const answers: number[] = [];
    const client = config(
      (async (input: RequestInfo | URL, init?: RequestInit) => {
        url = String(input);
        seen = init;
        return new Response(pushed.body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
      }) as typeof fetch,
      answers,
    );
    const got: SseMessage[] = [];
    const reading = (async () => {
      for await (const m of client.events.open(new AbortController().signal)) got.push(m);
    })();
    pushed.send('retry: 5000\n: conn');
    pushed.send('ected\n\nevent: changed\ndata: {"entities":["Cohort"]}\n\n');
    pushed.end();
    await reading;
    expect(url).toBe('https://passage.example.org/api/apps/passage/events');
    expect(url).not.toContain('tok-123');
    expect(new Headers(seen?.headers).get('authorization')).toBe('Bearer tok-123');
    expect(new Headers(seen?.headers).get('accept')).toBe('text/event-stream');
    expect(answers).toEqual([200]);
    expect(got).toEqual([
      { type: 'retry', ms: 5000 },
      { type: 'comment', text: 'connected' },
      { type: 'event', event: 'changed', data: '{"entities":["Cohort"]}' },
    ]);
  });

  it('throws a PlatformError with the status when refused (404: a server without the stream)', async () => {
    const { fetch } = fakeFetch([{ status: 404, body: { message: 'No such API endpoint', code: 'NOT_FOUND' } }]);
    const open = async () => {
      for await (const _ of config(fetch).events.open(new AbortController().signal)) void _;
    };
    const error = await open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('throws a PlatformError without a status when no answer came', async () => {
    const { fetch } = fakeFetch([new TypeError('Failed to fetch')]);
    const error = await (async () => {
      for await (const _ of config(fetch).events.open(new AbortController().signal)) void _;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: undefined, code: 'NETWORK_ERROR' });
  });

  it('ends quietly when its signal aborts', async () => {
    const pushed = pushedBody();
    const client = config((async () => new Response(pushed.body, { status: 200 })) as typeof fetch);
    const controller = new AbortController();
    const got: SseMessage[] = [];
    const reading = (async () => {
      for await (const m of client.events.open(controller.signal)) {
        got.push(m);
        controller.abort();
      }
    })();
    pushed.send(': hello\n\n');
    await expect(reading).resolves.toBeUndefined();
    expect(got).toEqual([{ type: 'comment', text: 'hello' }]);
  });
});
