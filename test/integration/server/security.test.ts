/**
 * Regression tests for the holes of issue #10 (a black-box probe of `npm start`). Each test is
 * named after the hole it closes. Runs on the harness's default store (harness.ts); the auth
 * races run on in-memory PGlite here and on PostgreSQL in security-postgres.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { from, registerAuthRaceTests } from './auth-races';
import { APP, E, PASSWORD as PASSWORD_OF_HARNESS, SECRET as SECRET_OF_HARNESS, startTestServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ withPasswords: true, publicUrl: 'https://passage.example.org' });
  await s.store.create(APP, 'Site', { site_name: 'Camp aaaa', site_type: 'fire_camp' }, { by: null, byId: null });
});
afterAll(() => s.close());

const A = (p: string) => `/api/apps/${APP}${p}`;
const json = async (res: Promise<Response> | Response) => {
  const r = await res;
  return { status: r.status, body: (await r.json()) as any, headers: r.headers };
};
const q = (filter: unknown) => `?q=${encodeURIComponent(JSON.stringify(filter))}`;

describe('hole 1: a catastrophic $regex hung the whole server', () => {
  const HOSTILE = { site_name: { $regex: '(a{1,255}){1,255}' } };

  it('refuses the hostile pattern on list and count with a 400 naming $regex, then answers a normal request', async () => {
    for (const path of [E('Site', q(HOSTILE)), E('Site', `/count${q(HOSTILE)}`), E('Site', `/v2/list${q(HOSTILE)}`)]) {
      const res = await json(s.request('GET', path, { token: s.tokens.coach }));
      expect(res.status, path).toBe(400);
      expect(res.body.message).toContain('$regex');
      expect(typeof res.body.code).toBe('string');
    }
    const normal = await json(s.request('GET', E('Site', q({ site_name: { $regex: '^Camp' } })), { token: s.tokens.coach }));
    expect(normal.status).toBe(200);
    expect(normal.body.map((r: any) => r.site_name)).toEqual(['Camp aaaa']);
    const count = await json(s.request('GET', E('Site', '/count'), { token: s.tokens.coach }));
    expect(count.body).toEqual({ count: 1 });
  });

  it('refuses nested quantifiers, large counted repetition and back-references, naming $regex', async () => {
    for (const pattern of ['(a+)+$', '(x*)*y', '((ab)*c)*', 'a{1,1000}', '(\\w)\\1', 'a'.repeat(201)]) {
      const res = await json(s.request('GET', E('Site', q({ site_name: { $regex: pattern } })), { token: s.tokens.coach }));
      expect(res.status, pattern).toBe(400);
      expect(res.body.message, pattern).toContain('$regex');
    }
    // Ordinary searches still work.
    for (const pattern of ['^Camp', 'a{2,4}', '(Camp|Site) a+', '\\d{3}-?\\d{4}|aaaa']) {
      expect((await s.request('GET', E('Site', q({ site_name: { $regex: pattern, $options: 'i' } })), { token: s.tokens.coach })).status, pattern).toBe(200);
    }
  });
});

describe('hole 3: reset and invite links were built from the Host header', () => {
  it('builds the reset link from PUBLIC_URL even when the request names another host', async () => {
    const before = s.mails.length;
    const res = await s.app.request(`http://attacker.example${A('/auth/reset-password-request')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email: 'coach@example.org' }),
    });
    expect(res.status).toBe(200);
    const mail = s.mails.slice(before).find((m) => m.to === 'coach@example.org');
    expect(mail?.text).toContain('https://passage.example.org/login?reset_token=');
    expect(mail?.text).not.toContain('attacker.example');
  });

  it('builds the invitation link from PUBLIC_URL even when the request names another host', async () => {
    const before = s.mails.length;
    const res = await s.app.request(`http://attacker.example${A('/users/invite-user')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.tokens.admin}` },
      body: JSON.stringify({ user_email: 'invited-host@example.org', role: 'user' }),
    });
    expect(res.status).toBe(200);
    const mail = s.mails.slice(before).find((m) => m.to === 'invited-host@example.org');
    expect(mail?.text).toContain('https://passage.example.org/login?reset_token=');
    expect(mail?.text).not.toContain('attacker.example');
  });

  it('builds the reset link of the sign-in page from PUBLIC_URL too', async () => {
    s.clock.ms += 60_000; // past the 30 s mail throttle of the first test
    const before = s.mails.length;
    const res = await s.app.request('http://attacker.example/login/reset-request', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'coach@example.org' }).toString(),
    });
    expect(res.status).toBe(200);
    const mail = s.mails.slice(before).find((m) => m.to === 'coach@example.org');
    expect(mail?.text).toContain('https://passage.example.org/login?reset_token=');
  });
});


describe('hole 5: 5xx on bad input', () => {
  const PROTO_NAMES = ['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString'];

  it('answers a body field named after an Object.prototype member with a 4xx or keeps it as data, never 500', async () => {
    const ana = await s.store.create(APP, 'Participant', { first_name: 'Ana', last_name: 'Diaz' }, { by: null, byId: null });
    for (const name of PROTO_NAMES) {
      const attempts = [
        s.request('POST', E('Participant'), { token: s.tokens.admin, body: { first_name: 'P', last_name: 'Q', [name]: 'x' } }),
        s.request('PUT', E('Participant', `/${ana.id}`), { token: s.tokens.coach, body: { [name]: 1 } }),
        s.request('PUT', E('User', '/me'), { token: s.tokens.coach, body: { [name]: 'x' } }),
        s.request('PUT', E('Enrollment', '/whatever'), { token: s.tokens.coach, body: { [name]: 'x' } }),
      ];
      for (const res of await Promise.all(attempts)) {
        const body = (await res.json()) as any;
        expect(res.status, `${name}: ${JSON.stringify(body)}`).toBeLessThan(500);
        if (res.status >= 400) expect(typeof body.message === 'string' && typeof body.code === 'string').toBe(true);
      }
    }
    expect(s.logs.filter((l) => l.startsWith('Internal error'))).toEqual([]);
  });

  it('answers an email with a NUL byte on every sign-in endpoint with a 4xx {message, code}', async () => {
    const email = 'coach\u0000@example.org';
    const token = `${Buffer.from(email).toString('base64url')}.abc`;
    const calls: Array<[string, unknown]> = [
      ['/auth/login', { email, password: 'whatever-pass' }],
      ['/auth/register', { email, password: 'long-enough-pass' }],
      ['/auth/resend-otp', { email }],
      ['/auth/reset-password-request', { email }],
      ['/auth/verify-otp', { email, otp_code: '123456' }],
      ['/auth/reset-password', { reset_token: token, new_password: 'long-enough-pass' }],
    ];
    for (const [path, body] of calls) {
      const res = await json(s.request('POST', A(path), { body }));
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(typeof res.body.message === 'string' && typeof res.body.code === 'string', path).toBe(true);
    }
    const page = await s.request('POST', '/login', { raw: new URLSearchParams({ email, password: 'x' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(page.status).toBeLessThan(500);
    expect(s.logs.filter((l) => l.startsWith('Internal error'))).toEqual([]);
  });
});

describe('hole 2: lost updates in auth (in-memory PGlite)', () => {
  let onPglite: TestServer;
  beforeAll(async () => {
    onPglite = await startTestServer({ withPasswords: true, store: 'pglite' });
  });
  afterAll(() => onPglite?.close());
  registerAuthRaceTests(() => onPglite);
});

describe('hole 4: re-registering an unverified email took the registration over', () => {
  it("keeps a pending registration until its code expires, so the owner's code verifies the owner's password", async () => {
    const email = 'victim-register@example.org';
    expect((await json(s.request('POST', A('/auth/register'), { body: { email, password: 'victim-pass-2026', full_name: 'Victim' } }))).status).toBe(200);
    const code = s.mails.filter((m) => m.to === email).at(-1)!.text.match(/code is (\d{6})/)![1];
    const takeover = await json(s.request('POST', A('/auth/register'), { body: { email, password: 'attacker-pass-1', full_name: 'Attacker' } }));
    expect(takeover).toMatchObject({ status: 409, body: { code: 'REGISTRATION_PENDING' } });
    const verified = await json(s.request('POST', A('/auth/verify-otp'), { body: { email, otp_code: code } }));
    expect(verified.status).toBe(200);
    expect(verified.body.user.full_name).toBe('Victim');
    expect((await s.request('POST', A('/auth/login'), { body: { email, password: 'victim-pass-2026' } })).status).toBe(200);
    expect((await s.request('POST', A('/auth/login'), { body: { email, password: 'attacker-pass-1' } })).status).toBe(401);
  });

  it('keeps holding a registration while a resent code is still valid, past its first 10 minutes', async () => {
    const email = 'resent-register@example.org';
    expect((await s.request('POST', A('/auth/register'), { body: { email, password: 'owner-pass-2026' } })).status).toBe(200);
    s.clock.ms += 9 * 60_000;
    expect((await s.request('POST', A('/auth/resend-otp'), { body: { email } })).status).toBe(200);
    s.clock.ms += 3 * 60_000; // 12 minutes after registering, 3 after the resent code
    const takeover = await json(s.request('POST', A('/auth/register'), { body: { email, password: 'attacker-pass-1' } }));
    expect(takeover).toMatchObject({ status: 409, body: { code: 'REGISTRATION_PENDING' } });
    const code = s.mails.filter((m) => m.to === email).at(-1)!.text.match(/code is (\d{6})/)![1];
    expect((await s.request('POST', A('/auth/verify-otp'), { body: { email, otp_code: code } })).status).toBe(200);
    expect((await s.request('POST', A('/auth/login'), { body: { email, password: 'owner-pass-2026' } })).status).toBe(200);
  });

  it('lets an unverified registration be replaced once its code has expired', async () => {
    const email = 'slow-register@example.org';
    expect((await s.request('POST', A('/auth/register'), { body: { email, password: 'first-pass-2026' } })).status).toBe(200);
    s.clock.ms += 11 * 60_000;
    expect((await s.request('POST', A('/auth/register'), { body: { email, password: 'second-pass-2026' } })).status).toBe(200);
    const code = s.mails.filter((m) => m.to === email).at(-1)!.text.match(/code is (\d{6})/)![1];
    expect((await s.request('POST', A('/auth/verify-otp'), { body: { email, otp_code: code } })).status).toBe(200);
    expect((await s.request('POST', A('/auth/login'), { body: { email, password: 'second-pass-2026' } })).status).toBe(200);
  });
});

describe('hole 6: the smaller holes', () => {
  it('answers every /api request with Cache-Control: no-store (data, sign-in, errors, unknown paths)', async () => {
    const answers = [
      await s.request('GET', E('Site'), { token: s.tokens.coach }),
      await s.request('GET', E('Site')),
      await s.request('POST', A('/auth/login'), { body: { email: 'coach@example.org', password: 'wrong-password-x' } }),
      await s.request('GET', `/api/apps/public/prod/public-settings/by-id/${APP}`),
      await s.request('GET', '/api/nothing-here'),
    ];
    for (const res of answers) expect(res.headers.get('cache-control'), res.url).toBe('no-store');
  });

  it('closes the connection after a 413, so the next request on the client works', async () => {
    const { serve } = await import('@hono/node-server');
    const http = await import('node:http');
    const { freePort } = await import('../../support/processes');
    const port = await freePort();
    const server = serve({ fetch: s.app.fetch, port, hostname: '127.0.0.1' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: string, token?: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        });
        req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
        req.on('error', reject);
        req.end(body);
      });
    try {
      const big = JSON.stringify({ first_name: 'x', blob: 'z'.repeat(2 * 1024 * 1024) });
      const refused = await send('POST', E('Participant'), big).catch((err: Error) => ({ status: 0, headers: {} as Record<string, unknown>, text: err.message }));
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe('close');
      const next = await send('GET', E('Site', '/count'), undefined, s.tokens.coach);
      expect(next.status).toBe(200);
      expect(JSON.parse(next.text)).toEqual({ count: 1 });
    } finally {
      agent.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses a /login form posted from another site (login CSRF), and still signs in from its own page', async () => {
    const form = (headers: Record<string, string>) =>
      s.request('POST', '/login', { raw: new URLSearchParams({ email: 'coach@example.org', password: PASSWORD_OF_HARNESS }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
    const foreign = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'same-site' },
    ] as Record<string, string>[];
    for (const headers of foreign) {
      const res = await form(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get('location')).toBeNull();
    }
    // What Chromium sends from our own page (Referrer-Policy: no-referrer makes Origin null), and
    // an explicit same origin.
    for (const headers of [{ origin: 'null', 'sec-fetch-site': 'same-origin' }, { origin: 'http://localhost' }] as Record<string, string>[]) {
      const own = await form(headers);
      expect(own.status, JSON.stringify(headers)).toBe(303);
      expect(own.headers.get('location')).toContain('?code=');
    }
  });

  it('counts a wrong current_password on change-password toward the lockout', async () => {
    const email = 'admin@example.org';
    const change = (current: string) =>
      from(s, '10.6.0.5', 'POST', A('/auth/change-password'), { user_id: s.users.admin.id, current_password: current, new_password: 'admin-new-pass-26' }, s.tokens.admin);
    for (let i = 0; i < 5; i++) expect((await change(`wrong-current-${i}`)).status).toBe(400);
    expect((await change(PASSWORD_OF_HARNESS)).status).toBe(429);
    // The lock is this source's: the admin signs in from their own desk.
    expect((await from(s, '10.6.0.1', 'POST', A('/auth/login'), { email, password: PASSWORD_OF_HARNESS })).status).toBe(200);
  });

  it('does not let anyone lock an account out for everyone: failures count per account and source', async () => {
    const email = 'coach@example.org';
    for (let i = 0; i < 5; i++) expect((await from(s, '203.0.113.7', 'POST', A('/auth/login'), { email, password: `attack-${i}-pass` })).status).toBe(401);
    expect((await from(s, '203.0.113.7', 'POST', A('/auth/login'), { email, password: PASSWORD_OF_HARNESS })).status).toBe(429);
    expect((await from(s, '192.0.2.10', 'POST', A('/auth/login'), { email, password: PASSWORD_OF_HARNESS })).status).toBe(200);
  });

  it('refuses tokens without exp, and tokens issued in the future', async () => {
    const { SignJWT } = await import('jose');
    const key = new TextEncoder().encode(SECRET_OF_HARNESS);
    const nowS = Math.floor(s.clock.ms / 1000);
    const sign = (build: (jwt: InstanceType<typeof SignJWT>) => InstanceType<typeof SignJWT>) =>
      build(new SignJWT({ app_id: APP }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(s.users.coach.id)).sign(key);
    const forever = await sign((j) => j.setIssuedAt(nowS));
    const future = await sign((j) => j.setIssuedAt(nowS + 3600).setExpirationTime(nowS + 7200));
    const noIat = await sign((j) => j.setExpirationTime(nowS + 600));
    const good = await sign((j) => j.setIssuedAt(nowS).setExpirationTime(nowS + 600));
    for (const token of [forever, future, noIat]) {
      expect((await json(s.request('GET', E('Site'), { token }))).body.code).toBe('INVALID_TOKEN');
    }
    expect((await s.request('GET', E('Site'), { token: good })).status).toBe(200);
  });
});

describe('hole 6: source maps were served by npm start', () => {
  it('answers 404 for a source map even when one is left in dist/, and still serves the script', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { staticAppRoutes } = await import('../../../server/routes/static-app');
    const dist = mkdtempSync(join(tmpdir(), 'passage-dist-'));
    try {
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Passage</title>');
      writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
      writeFileSync(join(dist, 'assets', 'index-abc.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
      const app = staticAppRoutes(dist);
      expect((await app.request('/assets/index-abc.js')).status).toBe(200);
      for (const path of ['/assets/index-abc.js.map', '/assets/INDEX-ABC.JS.MAP', '/assets/missing.js.map']) {
        const res = await app.request(path);
        expect(res.status, path).toBe(404);
        expect(await res.text()).not.toContain('sources');
      }
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
