import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../../src/platform';
import { fakeFetch } from './fake-fetch';

/** Issue #9.3: the sync engine hears of every HTTP answer of the app's client, whatever the call. */
describe('client.onAnswer', () => {
  it('reports every answer with its status, none for a request that got no answer, and stops when unsubscribed', async () => {
    const f = fakeFetch([{ status: 200, body: { id: 'u1' } }, { status: 500, body: { message: 'down' } }, new TypeError('Failed to fetch'), { status: 200, body: {} }]);
    const c = createPlatformClient({ serverUrl: 'http://srv', appId: 'passage', getToken: () => 'TOK', fetch: f.fetch });
    const seen: Array<{ status: number; ok: boolean }> = [];
    const stop = c.onAnswer((a) => seen.push(a));
    await c.auth.me();
    await expect(c.appLogs.logUserInApp('Dashboard')).rejects.toMatchObject({ status: 500 });
    await expect(c.entities('Participant').list()).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(seen).toEqual([
      { status: 200, ok: true },
      { status: 500, ok: false },
    ]);
    stop();
    await c.getPublicSettings();
    expect(seen).toHaveLength(2);
  });
});
