/**
 * functions/deviceKey (issue #14.2b), run on both stores: device-key.test.ts (PGlite) and
 * device-key-postgres.test.ts (PostgreSQL). Callers and their answers as /User/me has them; the key
 * is per user, stable, and shows up nowhere else.
 */
import { expect, it } from 'vitest';
import { createAccount } from '../../../server/auth/accounts';
import { issueToken, secretKey } from '../../../server/auth/tokens';
import { SECRET, type TestServer, type Who } from './harness';

export function registerDeviceKeyTests(server: () => TestServer) {
  const A = (p: string) => `/api/apps/${server().appId}${p}`;
  const invoke = (token?: string, name = 'deviceKey') => server().request('POST', A(`/functions/${name}`), { token, body: {} });
  const keyOf = async (token: string) => {
    const res = await invoke(token);
    expect(res.status).toBe(200);
    return ((await res.json()) as { key: string }).key;
  };

  it('gives a signed-in coach 32 random bytes in base64 and the default policy, never cached', async () => {
    const res = await invoke(server().tokens.coach);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { key: string; policy: unknown };
    expect(Object.keys(body).sort()).toEqual(['key', 'policy']);
    expect(body.policy).toEqual({ pin_min_length: 6, idle_lock_minutes: 15 });
    expect(body.key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.key, 'base64')).toHaveLength(32);
  });

  it('answers the same key to the same user, every time and also to racing first calls', async () => {
    const s = server();
    expect(await keyOf(s.tokens.coach)).toBe(await keyOf(s.tokens.coach));
    // A fresh user whose first calls arrive together (two tabs, a retry): one key for all of them.
    const { user } = await createAccount(s.store, s.appId, { email: `racer-${s.appId}@example.org`, full_name: 'Racer', role: 'user', verified: true });
    const token = await issueToken(secretKey(SECRET), user.id, s.appId, new Date(s.clock.ms));
    const keys = await Promise.all(Array.from({ length: 8 }, () => keyOf(token)));
    expect(new Set(keys).size).toBe(1);
    expect(await keyOf(token)).toBe(keys[0]);
  });

  it('gives every user their own key', async () => {
    const s = server();
    const keys = await Promise.all((['admin', 'coach', 'noProfile', 'pending', 'rejected'] as Who[]).map((who) => keyOf(s.tokens[who])));
    expect(new Set(keys).size).toBe(5);
  });

  it('gives users who are not approved (no profile, pending, rejected) their key, like User/me', async () => {
    const s = server();
    for (const who of ['noProfile', 'pending', 'rejected'] as Who[]) {
      expect((await s.request('GET', A('/entities/Participant'), { token: s.tokens[who] })).status).toBe(403);
      expect(Buffer.from(await keyOf(s.tokens[who]), 'base64')).toHaveLength(32);
    }
  });

  it('refuses anonymous callers (401) and tokens of another app, disabled or deleted users (403), as User/me does', async () => {
    const s = server();
    const anonymous = await invoke();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect((await invoke('not-a-token')).status).toBe(401);

    const { user } = await createAccount(s.store, s.appId, { email: `leaver-${s.appId}@example.org`, full_name: 'Leaver', role: 'user', verified: true });
    const leaver = await issueToken(secretKey(SECRET), user.id, s.appId, new Date(s.clock.ms));
    await keyOf(leaver);
    expect((await s.request('DELETE', A(`/entities/User/${user.id}`), { token: s.tokens.admin })).status).toBe(200);

    for (const token of [s.tokens.disabled, s.tokens.otherApp, leaver]) {
      const res = await invoke(token);
      const me = await s.request('GET', A('/entities/User/me'), { token });
      expect([res.status, me.status]).toEqual([403, 403]);
      expect(await res.json()).toMatchObject({ code: 'USER_NOT_REGISTERED', extra_data: { reason: 'user_not_registered' } });
    }
  });

  it('shows the key in no User record, list, log line or app log', async () => {
    const s = server();
    await s.request('POST', `/api/app-logs/${s.appId}/log-user-in-app/Dashboard`, { token: s.tokens.coach });
    const keys = await Promise.all((['admin', 'coach', 'pending'] as Who[]).map((who) => keyOf(s.tokens[who])));
    const seen = [
      await (await s.request('GET', A('/entities/User'), { token: s.tokens.admin })).text(),
      await (await s.request('GET', A('/entities/User/v2/list'), { token: s.tokens.admin })).text(),
      await (await s.request('GET', A(`/entities/User/${s.users.coach.id}`), { token: s.tokens.admin })).text(),
      await (await s.request('GET', A('/entities/User/me'), { token: s.tokens.coach })).text(),
      await (await s.request('GET', A('/entities/User/me'), { token: s.tokens.pending })).text(),
      await (await s.request('GET', `/api/app-logs/${s.appId}`, { token: s.tokens.admin })).text(),
      JSON.stringify(await s.store.getAuth(s.appId, 'coach@example.org')),
      s.logs.join('\n'),
    ];
    expect(seen[0]).toContain(s.users.coach.id);
    const hex = keys.map((k) => Buffer.from(k, 'base64').toString('hex'));
    for (const text of seen) for (const k of [...keys, ...hex]) expect(text).not.toContain(k);
    const coach = (await (await s.request('GET', A(`/entities/User/${s.users.coach.id}`), { token: s.tokens.admin })).json()) as Record<string, unknown>;
    expect(Object.keys(coach).filter((f) => /key/i.test(f))).toEqual([]);
  });

  it('answers 404 for any other function, another app, or another method', async () => {
    const s = server();
    const unknown = await invoke(s.tokens.coach, 'deviceKeys');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'No such function', code: 'NOT_FOUND' });
    expect((await s.request('POST', '/api/apps/another-app/functions/deviceKey', { token: s.tokens.coach, body: {} })).status).toBe(404);
    const get = await s.request('GET', A('/functions/deviceKey'), { token: s.tokens.coach });
    expect(get.status).toBe(404);
    expect(await get.text()).not.toMatch(/"key"/);
  });
}
