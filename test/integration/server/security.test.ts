/**
 * Regression tests for the holes of issue #10 (a black-box probe of `npm start`). Each test is
 * named after the hole it closes. Runs on in-memory PGlite; the auth races also run on PostgreSQL
 * in security-postgres.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

