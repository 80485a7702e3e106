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

describe('X-Passage-Previous (issue #9.10)', () => {
  it('attaches each record\'s previous values, by id, where the engine reads them; never as a visible field', async () => {
    const { previousOf } = await import('../../../src/data/sync/types');
    const header = encodeURIComponent(JSON.stringify([
      { id: 'b', updated_date: '2026-01-01T00:00:00.000Z', values: { phone: 'é1' } },
      { id: 'a', updated_date: null, values: { phone: null } },
    ]));
    const f = fakeFetch([{ body: [{ id: 'a', phone: '2' }, { id: 'b', phone: '3' }], headers: { 'X-Passage-Previous': header } }, { body: { id: 'c' }, headers: { 'X-Passage-Previous': '%%%' } }]);
    const c = createPlatformClient({ serverUrl: 'http://srv', appId: 'passage', getToken: () => 'TOK', fetch: f.fetch });
    const rows = await c.entities('Participant').bulkUpdate([{ id: 'a', phone: '2' }, { id: 'b', phone: '3' }]);
    expect(previousOf(rows[0] as never)).toEqual({ updated_date: null, values: { phone: null } });
    expect(previousOf(rows[1] as never)).toEqual({ updated_date: '2026-01-01T00:00:00.000Z', values: { phone: 'é1' } });
    expect(JSON.parse(JSON.stringify(rows))).toEqual([{ id: 'a', phone: '2' }, { id: 'b', phone: '3' }]);
    expect({ ...rows[0] }).toEqual({ id: 'a', phone: '2' });
    // A mangled header is ignored, not an error.
    const one = await c.entities('Participant').update('c', {});
    expect(previousOf(one as never)).toBeUndefined();
  });
});
