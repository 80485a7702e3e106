/**
 * Regression tests for the holes of issue #10 (a black-box probe of `npm start`). Each test is
 * named after the hole it closes. Runs on in-memory PGlite; the auth races also run on PostgreSQL
 * in security-postgres.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAuthRaceTests } from './auth-races';
import { APP, E, startTestServer, type TestServer } from './harness';

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
  registerAuthRaceTests(() => s);
});
