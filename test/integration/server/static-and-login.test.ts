import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startTestServer, type TestServer } from './harness';

let s: TestServer;
let dist: string;
const ORIGIN = 'http://localhost';

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'passage-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Passage</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets/index-Abc123.js'), 'console.log("app")');
  writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Passage"}');
  writeFileSync(join(dist, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  // A file next to dist/ that a path-traversal request would reach.
  writeFileSync(join(dist, '..', 'passage-secret.txt'), 'secret');
  s = await startTestServer({ distDir: dist, withPasswords: true });
});
afterAll(async () => {
  await s.close();
  rmSync(dist, { recursive: true, force: true });
  rmSync(join(dist, '..', 'passage-secret.txt'), { force: true });
});

const get = (path: string) => s.app.request(`${ORIGIN}${path}`);
const form = (path: string, fields: Record<string, string>) =>
  s.app.request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

describe('static app', () => {
  it('serves index.html for page paths in any case and for unknown paths, uncached', async () => {
    for (const path of ['/', '/dashboard', '/ParticipantDetail?id=5', '/COHORTS', '/no-such-page', '/programssites/']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year and revalidates the service worker and manifest', async () => {
    const asset = await get('/assets/index-Abc123.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await get('/sw.js')).headers.get('cache-control')).toBe('no-cache');
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(manifest.headers.get('content-type')).toMatch(/manifest\+json/);
    expect((await get('/icon-192.png')).headers.get('content-type')).toBe('image/png');
  });

  it('answers missing files with 404 instead of the page, and never leaves dist/', async () => {
    expect((await get('/assets/missing-123.js')).status).toBe(404);
    expect((await get('/favicon.ico')).status).toBe(404);
    for (const path of ['/../passage-secret.txt', '/%2e%2e/passage-secret.txt', '/assets/..%2f..%2fpassage-secret.txt']) {
      const res = await get(path);
      expect(await res.text(), path).not.toBe('secret');
    }
  });

  it('never answers /api paths with the page', async () => {
    const res = await get('/api/apps/passage/nothing');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get('/api')).headers.get('content-type')).toMatch(/json/);
  });

  it('sends the security headers on every response', async () => {
    for (const path of ['/', '/assets/index-Abc123.js', '/api/apps/passage/entities/Site', '/login']) {
      const res = await get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("worker-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});

describe('login page', () => {
  it('renders labelled inputs, a Sign in button and links to register and reset', async () => {
    const res = await get('/login?from_url=%2Fcohorts');
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toMatch(/<label for="email">Email<\/label><input id="email" name="email" type="email"/);
    expect(html).toMatch(/<label for="password">Password<\/label><input id="password"/);
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).toContain('href="/login?mode=register&amp;from_url=%2Fcohorts"');
    expect(html).toContain('href="/login?mode=reset&amp;from_url=%2Fcohorts"');
    expect(html).not.toContain('<script');
  });

  it('signs in and returns to from_url with a one-time code (never the token), keeping its parameters', async () => {
    const res = await form('/login', { email: 'coach@example.org', password: PASSWORD, from_url: `${ORIGIN}/cohortdetail?id=7&tab=roster` });
    expect(res.status).toBe(303);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const target = new URL(res.headers.get('location')!);
    expect(target.origin + target.pathname).toBe(`${ORIGIN}/cohortdetail`);
    expect(target.searchParams.get('id')).toBe('7');
    expect(target.searchParams.get('tab')).toBe('roster');
    expect(target.searchParams.has('access_token')).toBe(false);
    const exchanged = await s.request('POST', '/api/apps/passage/auth/exchange', { body: { code: target.searchParams.get('code') } });
    const { access_token: token } = (await exchanged.json()) as { access_token: string };
    const me = await s.request('GET', '/api/apps/passage/entities/User/me', { token });
    expect(((await me.json()) as any).email).toBe('coach@example.org');
  });

  it('keeps https from_urls behind a TLS-terminating proxy', async () => {
    const res = await s.app.request(`${ORIGIN}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' },
      body: new URLSearchParams({ email: 'coach@example.org', password: PASSWORD, from_url: 'https://localhost/cohorts' }).toString(),
    });
    expect(res.headers.get('location')).toMatch(/^https:\/\/localhost\/cohorts\?code=/);
  });

  it('never redirects to another origin', async () => {
    for (const from of ['https://evil.example/steal', '//evil.example/x', 'javascript:alert(1)']) {
      const res = await form('/login', { email: 'coach@example.org', password: PASSWORD, from_url: from });
      const target = new URL(res.headers.get('location')!);
      expect(target.origin, from).toBe(ORIGIN);
      expect(target.pathname).toBe('/');
    }
    const logout = await get('/api/apps/auth/logout?from_url=https%3A%2F%2Fevil.example%2F');
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe(`${ORIGIN}/`);
    const back = await get('/api/apps/auth/logout?from_url=%2Fparticipants');
    expect(back.headers.get('location')).toBe(`${ORIGIN}/participants`);
  });

  it('shows errors inline, keeps the email and escapes it', async () => {
    const res = await form('/login', { email: '"><script>alert(1)</script>@x.org', password: 'wrong-password', from_url: '/' });
    const html = await res.text();
    expect(res.status).toBe(401);
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
    const wrong = await form('/login', { email: 'coach@example.org', password: 'wrong-password', from_url: '/' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Invalid email or password');
  });

  it('registers, asks for the mailed code and signs the new user in', async () => {
    const reg = await form('/login/register', { email: 'pagereg@example.org', password: 'page-pass-123', full_name: 'Page Reg', from_url: '/profilesetup' });
    const html = await reg.text();
    expect(html).toContain('Verification code');
    expect(html).toContain('name="email" value="pagereg@example.org"');
    const code = s.mails.at(-1)!.text.match(/code is (\d{6})/)![1];
    const wrong = await form('/login/verify', { email: 'pagereg@example.org', otp_code: code === '000000' ? '111111' : '000000', from_url: '/profilesetup' });
    expect(await wrong.text()).toContain('That code is not correct');
    const ok = await form('/login/verify', { email: 'pagereg@example.org', otp_code: code, from_url: '/profilesetup' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(/^http:\/\/localhost\/profilesetup\?code=/);
  });

  it('resets a password through the page', async () => {
    const req = await form('/login/reset-request', { email: 'pending@example.org', from_url: '/' });
    expect(await req.text()).toContain('Reset code');
    const link = s.mails.at(-1)!.text.match(/(http:\/\/localhost\/login\?reset_token=\S+)/)![1];
    const page = await s.app.request(link);
    const token = decodeURIComponent(new URL(link).searchParams.get('reset_token')!);
    expect(await page.text()).toContain(`value="${token}"`);
    const done = await form('/login/reset', { reset_token: token, new_password: 'fresh-pass-2026', from_url: '/' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toMatch(/\?code=/);
    expect(done.headers.get('location')).not.toMatch(/access_token/);
  });
});
