import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../../src/platform';
import { fakeFetch } from './fake-fetch';

function setup(replies: Parameters<typeof fakeFetch>[0] = []) {
  const f = fakeFetch(replies);
  const c = createPlatformClient({ serverUrl: '', appId: 'passage', getToken: () => 'T', fetch: f.fetch, originUrl: 'x', functionsVersion: 'v2' });
  return { c, calls: f.calls };
}

describe('integrations and functions', () => {
  it('refuse a plain string with the exact messages, before any request', async () => {
    const { c, calls } = setup();
    await expect(c.integrations.Core.SendEmail('hello' as never)).rejects.toThrow(
      'Integration SendEmail must receive an object with named parameters, received: hello',
    );
    await expect(c.functions.invoke('exportCsv', 'all' as never)).rejects.toThrow(
      'Function exportCsv must receive an object with named parameters, received: all',
    );
    expect(calls).toHaveLength(0);
  });

  it('post named parameters to the contract paths', async () => {
    const { c, calls } = setup([{ body: { ok: 1 } }, { body: {} }, { body: { rows: 3 } }, { body: {} }]);
    await c.integrations.Core.SendEmail({ to: 'a@b', subject: 's', body: 'b' });
    await c.integrations.Slack.PostMessage({ text: 'hi' });
    expect(await c.functions.invoke('exportCsv', { cohort: 'c1' })).toEqual({ data: { rows: 3 } });
    await c.integrations.custom.call('github', 'get:/repos/{owner}', { pathParams: { owner: 'o' }, queryParams: { a: 1 }, x: 2 });
    expect(calls.map((x) => x.url)).toEqual([
      '/api/apps/passage/integration-endpoints/Core/SendEmail',
      '/api/apps/passage/integration-endpoints/installable/Slack/integration-endpoints/PostMessage',
      '/api/apps/passage/functions/exportCsv',
      '/api/apps/passage/integrations/custom/github/get:/repos/{owner}',
    ]);
    expect(calls[0].body).toEqual({ to: 'a@b', subject: 's', body: 'b' });
    expect(calls[2].headers.get('Base44-Functions-Version')).toBe('v2');
    expect(calls[3].body).toEqual({ x: 2, path_params: { owner: 'o' }, query_params: { a: 1 } });
  });

  it('custom.call needs a slug and an operation id', async () => {
    const { c } = setup();
    await expect(c.integrations.custom.call(' ', 'op')).rejects.toThrow('Integration slug is required and cannot be empty');
    await expect(c.integrations.custom.call('s', '')).rejects.toThrow('Operation ID is required and cannot be empty');
  });

  it('a File value switches the body to multipart with objects as JSON', async () => {
    const { c, calls } = setup([{ body: { file_url: 'u' } }]);
    await c.integrations.Core.UploadFile({ file: new File(['abc'], 'a.txt'), meta: { k: 1 }, n: 3 });
    const form = calls[0].body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('file') as File).name).toBe('a.txt');
    expect(form.get('meta')).toBe('{"k":1}');
    expect(form.get('n')).toBe('3');
    expect(calls[0].headers.has('Content-Type')).toBe(false);
  });

  it('awaiting the integrations object does not treat it as a promise', async () => {
    const { c } = setup();
    expect(await Promise.resolve(c.integrations)).toBe(c.integrations);
  });
});
