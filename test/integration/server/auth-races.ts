/**
 * Hole 2 of issue #10 (lost updates in auth), run on both stores: security.test.ts (PGlite) and
 * security-postgres.test.ts (PostgreSQL). Each test uses its own account of the harness.
 */
import { expect, it } from 'vitest';
import { createAccount } from '../../../server/auth/accounts';
import { PASSWORD, type TestServer } from './harness';

/** A request from a given client address (what @hono/node-server hands the app as env.incoming). */
export function from(s: TestServer, address: string, method: string, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return s.app.request(`http://localhost${path}`, { method, headers, body: JSON.stringify(body) }, { incoming: { socket: { remoteAddress: address } } });
}

export function registerAuthRaceTests(server: () => TestServer) {
  const A = (p: string) => `/api/apps/${server().appId}${p}`;
  const statuses = async (work: Array<Promise<Response> | Response>) => (await Promise.all(work)).map((r) => r.status);

  it('hole 2: 50 concurrent wrong passwords get at most 5 checks; the rest, and then the right one, get 429', async () => {
    const s = server();
    const email = 'rejected@example.org';
    const wrong = await statuses(Array.from({ length: 50 }, (_, i) => from(s, '10.1.0.9', 'POST', A('/auth/login'), { email, password: `guess-number-${i}` })));
    expect(wrong.filter((st) => st === 401)).toHaveLength(5);
    expect(wrong.filter((st) => st === 429)).toHaveLength(45);
    expect((await from(s, '10.1.0.9', 'POST', A('/auth/login'), { email, password: PASSWORD })).status).toBe(429);
  }, 120_000);

  it('hole 2: 50 concurrent wrong passwords cannot revert a password change, and the old token stays refused', async () => {
    const s = server();
    const email = 'noprofile@example.org';
    const oldToken = s.tokens.noProfile;
    const attack = Array.from({ length: 50 }, (_, i) => from(s, '10.2.0.66', 'POST', A('/auth/login'), { email, password: `guess-number-${i}` }));
    const change = from(s, '10.2.0.1', 'POST', A('/auth/change-password'), { user_id: s.users.noProfile.id, current_password: PASSWORD, new_password: 'changed-pass-2026' }, oldToken);
    const [changed] = await Promise.all([change, ...attack]);
    expect(changed.status).toBe(200);
    const fresh = ((await changed.json()) as { access_token: string }).access_token;
    expect((await from(s, '10.2.0.1', 'POST', A('/auth/login'), { email, password: 'changed-pass-2026' })).status).toBe(200);
    expect((await from(s, '10.2.0.2', 'POST', A('/auth/login'), { email, password: PASSWORD })).status).toBe(401);
    expect((await s.request('GET', A('/entities/User/me'), { token: oldToken })).status).toBe(401);
    expect((await s.request('GET', A('/entities/User/me'), { token: fresh })).status).toBe(200);
  }, 120_000);

  it('hole 2: 50 concurrent wrong passwords cannot revert a password reset, and the reset link works once', async () => {
    const s = server();
    const email = 'pending@example.org';
    s.clock.ms += 60_000; // past any earlier mail throttle
    expect((await from(s, '10.3.0.1', 'POST', A('/auth/reset-password-request'), { email })).status).toBe(200);
    const mail = [...s.mails].reverse().find((m) => m.to === email && m.text.includes('reset_token='))!;
    const token = decodeURIComponent(mail.text.match(/reset_token=(\S+)/)![1]);
    const attack = Array.from({ length: 50 }, (_, i) => from(s, '10.3.0.66', 'POST', A('/auth/login'), { email, password: `guess-number-${i}` }));
    const resets = [0, 1].map((i) => from(s, '10.3.0.1', 'POST', A('/auth/reset-password'), { reset_token: token, new_password: `reset-pass-2026-${i}` }));
    const [first, second] = await Promise.all([...resets, ...attack]);
    const ok = [first, second].filter((r) => r.status === 200);
    expect(ok, 'the reset link works exactly once').toHaveLength(1);
    const winner = ok[0] === first ? 'reset-pass-2026-0' : 'reset-pass-2026-1';
    expect((await from(s, '10.3.0.1', 'POST', A('/auth/login'), { email, password: winner })).status).toBe(200);
    expect((await s.request('GET', A('/entities/User/me'), { token: s.tokens.pending })).status).toBe(401);
  }, 120_000);

  it('issue #25: 10 parallel password changes with the right password: one changes it, the rest are signed out, none is a 429', async () => {
    const s = server();
    const email = 'changer@example.org';
    const { user } = await createAccount(s.store, s.appId, { email, password: PASSWORD, role: 'user', verified: true });
    const token = ((await (await from(s, '10.4.0.1', 'POST', A('/auth/login'), { email, password: PASSWORD })).json()) as { access_token: string }).access_token;
    const changes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        from(s, '10.4.0.1', 'POST', A('/auth/change-password'), { user_id: user.id, current_password: PASSWORD, new_password: `changed-pass-${i}` }, token),
      ),
    );
    const st = changes.map((r) => r.status);
    expect(st.filter((x) => x === 429), 'no lockout for the right password').toHaveLength(0);
    expect(st.filter((x) => x === 200), 'the first change wins').toHaveLength(1);
    expect(st.filter((x) => x === 401), 'the others came with a token the first change signed out').toHaveLength(9);
    const winner = st.indexOf(200);
    const fresh = ((await changes[winner].json()) as { access_token: string }).access_token;
    expect((await s.request('GET', A('/entities/User/me'), { token: fresh })).status).toBe(200);
    expect((await s.request('GET', A('/entities/User/me'), { token })).status).toBe(401);
    // None of the nine counted as a failure: four wrong tries still get their check, then the new
    // password signs in from the same address.
    for (let i = 0; i < 4; i++) expect((await from(s, '10.4.0.1', 'POST', A('/auth/login'), { email, password: `wrong-${i}` })).status).toBe(401);
    expect((await from(s, '10.4.0.1', 'POST', A('/auth/login'), { email, password: `changed-pass-${winner}` })).status).toBe(200);
  }, 120_000);

  it('issue #25: 10 parallel sign-ins with the right password from one address all succeed', async () => {
    const s = server();
    const email = 'busy@example.org';
    await createAccount(s.store, s.appId, { email, password: PASSWORD, role: 'user', verified: true });
    const st = await statuses(Array.from({ length: 10 }, () => from(s, '10.5.0.1', 'POST', A('/auth/login'), { email, password: PASSWORD })));
    expect(st).toEqual(Array(10).fill(200));
  }, 120_000);
}
