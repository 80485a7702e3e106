/**
 * Issue #21's sign-in: the /login page hands back a one-time code (never a token) that the app
 * exchanges by POST with its PKCE verifier, and sessions that logout ends server-side. Run on both
 * stores: sign-in.test.ts (PGlite) and sign-in-postgres.test.ts (PostgreSQL), since single use
 * under parallel exchange is the database's to guarantee.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { issueToken, readToken, secretKey } from '../../../server/auth/tokens';
import { newDeviceId, PASSWORD, SECRET, type TestServer } from './harness';

const ORIGIN = 'http://localhost';

export function registerSignInTests(server: () => TestServer) {
  const A = (p: string) => `/api/apps/${server().appId}${p}`;
  const form = (path: string, fields: Record<string, string>) =>
    server().app.request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  const pkce = () => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };
  /** Signs the coach in on the page; the code from the 303's Location. */
  const codeFor = async (challenge?: string, email = 'coach@example.org') => {
    const res = await form('/login', { email, password: PASSWORD, from_url: '/cohorts?tab=2', ...(challenge ? { code_challenge: challenge } : {}) });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.has('access_token')).toBe(false);
    return location.searchParams.get('code')!;
  };
  const exchange = async (body: Record<string, unknown>) => {
    const res = await server().request('POST', A('/auth/exchange'), { body });
    return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
  };
  const expired = { code: 'INVALID_GRANT', message: 'This sign-in link has expired. Please sign in again.' };

  it('code flow: the page redirects with ?code= bound to the S256 challenge; exchange with the verifier gives a session token', async () => {
    const s = server();
    const { verifier, challenge } = pkce();
    const page = await s.app.request(`${ORIGIN}/login?from_url=%2Fcohorts&code_challenge=${challenge}&code_challenge_method=S256`);
    expect(await page.text()).toContain(`<input type="hidden" name="code_challenge" value="${challenge}">`);
    const code = await codeFor(challenge);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const device = newDeviceId();
    const res = await exchange({ code, code_verifier: verifier, device_id: device });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.user).toMatchObject({ email: 'coach@example.org' });
    const claims = (await readToken(secretKey(SECRET), res.body.access_token, new Date(s.clock.ms)))!;
    expect(claims).toMatchObject({ sub: s.users.coach.id, did: device, auth_time: Math.floor(s.clock.ms / 1000) });
    expect(claims.sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await s.request('GET', A('/entities/User/me'), { token: res.body.access_token })).status).toBe(200);
    // Fresh: the tablet may fetch its device key with it right away.
    expect((await s.request('POST', A('/functions/deviceKey'), { token: res.body.access_token, body: { device_id: device } })).status).toBe(200);
  });

  it('a wrong verifier burns the code: the right one fails afterwards', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    expect(await exchange({ code, code_verifier: pkce().verifier })).toMatchObject({ status: 400, body: expired });
    expect(await exchange({ code, code_verifier: verifier })).toMatchObject({ status: 400, body: expired });
    const other = await codeFor(challenge);
    expect(await exchange({ code: other })).toMatchObject({ status: 400, body: expired }); // missing verifier
    expect(await exchange({ code: other, code_verifier: verifier })).toMatchObject({ status: 400 });
  });

  it('a code works once', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    expect((await exchange({ code, code_verifier: verifier })).status).toBe(200);
    expect(await exchange({ code, code_verifier: verifier })).toMatchObject({ status: 400, body: expired });
    expect(await exchange({ code: 'not-a-code' })).toMatchObject({ status: 400, body: expired });
    expect(await exchange({})).toMatchObject({ status: 400, body: expired });
  });

  it('a code expires after 60 s', async () => {
    const s = server();
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    s.clock.ms += 61_000;
    try {
      expect(await exchange({ code, code_verifier: verifier })).toMatchObject({ status: 400, body: expired });
    } finally {
      s.clock.ms -= 61_000;
    }
    const quick = await codeFor(challenge);
    s.clock.ms += 59_000;
    try {
      expect((await exchange({ code: quick, code_verifier: verifier })).status).toBe(200);
    } finally {
      s.clock.ms -= 59_000;
    }
  });

  it('parallel exchanges of one code give exactly one token', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const answers = await Promise.all(Array.from({ length: 12 }, () => exchange({ code, code_verifier: verifier })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.body.code === 'INVALID_GRANT')).toHaveLength(11);
  });

  it('a sign-in without a challenge gets an unbound code; a malformed device_id is a 400 that does not spend it', async () => {
    const code = await codeFor();
    expect(await exchange({ code, device_id: 'no good' })).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    const res = await exchange({ code });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'user']);
  });

  it('a code issued before a password change is refused', async () => {
    const s = server();
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge, 'pending@example.org');
    await s.store.updateAuth(s.appId, 'pending@example.org', (a) => ({ ...a, token_version: (Number(a.token_version) || 0) + 1 }));
    expect(await exchange({ code, code_verifier: verifier })).toMatchObject({ status: 400, body: expired });
  });

  it('puts no access_token in any Location of the /login flow, and every answer of the flow is no-store', async () => {
    const s = server();
    const { challenge } = pkce();
    const answers: Response[] = [];
    const track = async (res: Response | Promise<Response>) => {
      const r = await res;
      answers.push(r);
      return r;
    };
    const q = `from_url=%2Fparticipants%3Faccess_token%3Dplanted&code_challenge=${challenge}&code_challenge_method=S256`;
    await track(s.app.request(`${ORIGIN}/login?${q}`));
    await track(s.app.request(`${ORIGIN}/login?mode=register&${q}`));
    await track(s.app.request(`${ORIGIN}/login?mode=reset&${q}`));
    await track(form('/login', { email: 'coach@example.org', password: 'wrong-password', from_url: '/', code_challenge: challenge }));
    const signedIn = await track(form('/login', { email: 'coach@example.org', password: PASSWORD, from_url: '/participants?access_token=planted', code_challenge: challenge }));
    expect(new URL(signedIn.headers.get('location')!).search).toMatch(/^\?code=[A-Za-z0-9_-]{43}$/);

    const email = `flow-${s.appId}@example.org`.toLowerCase();
    const reg = await track(form('/login/register', { email, password: 'flow-pass-2026', full_name: 'Flow', from_url: '/profilesetup', code_challenge: challenge }));
    expect(await reg.clone().text()).toContain(`name="code_challenge" value="${challenge}"`);
    const otp = s.mails.at(-1)!.text.match(/code is (\d{6})/)![1];
    await track(form('/login/resend', { email, from_url: '/profilesetup', code_challenge: challenge }));
    const verified = await track(form('/login/verify', { email, otp_code: otp, from_url: '/profilesetup', code_challenge: challenge }));
    expect(verified.status).toBe(303);

    s.clock.ms += 31_000; // one sign-in mail per account per 30 s
    await track(form('/login/reset-request', { email, from_url: '/', code_challenge: challenge }));
    const link = s.mails.at(-1)!.text.match(/(http:\/\/localhost\/login\?reset_token=\S+)/)![1];
    await track(s.app.request(link));
    const token = decodeURIComponent(new URL(link).searchParams.get('reset_token')!);
    const reset = await track(form('/login/reset', { reset_token: token, new_password: 'flow-pass-2027', from_url: '/', code_challenge: challenge }));
    expect(reset.status).toBe(303);
    s.clock.ms -= 31_000;
    await track(s.app.request(`${ORIGIN}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, body: 'email=x' }));
    await track(s.app.request(`${ORIGIN}/api/apps/auth/logout?from_url=%2F`));

    const redirects = answers.filter((r) => r.status === 303 || r.status === 302);
    expect(redirects.length).toBe(4);
    for (const r of answers) {
      expect(r.headers.get('cache-control'), `${r.status} ${r.headers.get('location')}`).toBe('no-store');
      expect(r.headers.get('location') ?? '').not.toMatch(/access_token/);
    }
    for (const r of redirects.filter((x) => x.status === 303)) expect(new URL(r.headers.get('location')!).searchParams.get('code')).toBeTruthy();

    // The JSON routes of the flow too.
    const json = [
      await s.request('POST', A('/auth/login'), { body: { email: 'coach@example.org', password: PASSWORD } }),
      await s.request('POST', A('/auth/exchange'), { body: { code: 'x' } }),
      await s.request('POST', A('/auth/logout'), { body: { sessions: [] } }),
    ];
    for (const r of json) expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('the JSON login takes a device_id into the token and starts a session', async () => {
    const s = server();
    const device = newDeviceId();
    const res = await s.request('POST', A('/auth/login'), { body: { email: 'coach@example.org', password: PASSWORD, device_id: device } });
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const claims = (await readToken(secretKey(SECRET), access_token, new Date(s.clock.ms)))!;
    expect(claims.did).toBe(device);
    expect(await s.store.getSession(s.appId, claims.sid!)).toMatchObject({ user_id: s.users.coach.id, device_id: device, revoked_date: null });
    const bad = await s.request('POST', A('/auth/login'), { body: { email: 'coach@example.org', password: PASSWORD, device_id: 'x' } });
    expect(bad.status).toBe(400);
  });

  it('logout with a bearer token ends its session: the next request is 401 SESSION_REVOKED', async () => {
    const s = server();
    const mine = await s.signIn('coach');
    const other = await s.signIn('coach');
    const res = await s.request('POST', A('/auth/logout'), { token: mine.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const after = await s.request('GET', A('/entities/User/me'), { token: mine.token });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ code: 'SESSION_REVOKED', message: expect.any(String) });
    expect((await s.request('POST', A('/functions/deviceKey'), { token: mine.token, body: { device_id: newDeviceId() } })).status).toBe(401);
    // Only that session: the coach's other tablet keeps working, and so do tokens from before sessions.
    expect((await s.request('GET', A('/entities/User/me'), { token: other.token })).status).toBe(200);
    expect((await s.request('GET', A('/entities/User/me'), { token: s.tokens.coach })).status).toBe(200);
  });

  it('anonymous logout ends the sessions listed (at most 20), and nothing else', async () => {
    const s = server();
    const [a, b, keep] = [await s.signIn('coach'), await s.signIn('admin'), await s.signIn('coach')];
    const res = await s.request('POST', A('/auth/logout'), { body: { sessions: [a.sid, b.sid, 'no-such-session'] } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    for (const t of [a, b]) {
      const r = await s.request('GET', A('/entities/User/me'), { token: t.token });
      expect(await r.json()).toMatchObject({ code: 'SESSION_REVOKED' });
    }
    expect((await s.request('GET', A('/entities/User/me'), { token: keep.token })).status).toBe(200);
    for (const sessions of [Array.from({ length: 21 }, (_, i) => `sid-${i}`), 'one', [42]]) {
      expect((await s.request('POST', A('/auth/logout'), { body: { sessions } })).status).toBe(400);
    }
    expect((await s.request('POST', A('/auth/logout'), { body: {} })).status).toBe(200);
  });

  it('a token naming a session the server never stored is refused', async () => {
    const s = server();
    const forged = await issueToken(secretKey(SECRET), s.users.coach.id, s.appId, new Date(s.clock.ms), 0, { sid: 'never-stored-session', authTime: Math.floor(s.clock.ms / 1000) });
    const res = await s.request('GET', A('/entities/User/me'), { token: forged });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'SESSION_REVOKED' });
  });
}
