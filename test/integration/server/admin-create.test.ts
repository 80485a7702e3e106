/**
 * `npm run admin:create` against the embedded database (issue #25.5), as an operator runs it: the
 * first administrator of a DEMO=0 server, the set-password link it prints without mail, the link
 * working on the server, a refusal while the server holds the data directory, and
 * `--password-stdin`. PostgreSQL and mailing: shared-secret-postgres.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, stopChild } from '../../support/processes';
import { CLEAN_ENV, adminCreate, linkIn } from './admin-create-cli';

const dataDir = mkdtempSync(join(tmpdir(), 'passage-admin-create-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const post = async (base: string, path: string, body: unknown, token?: string) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('npm run admin:create on the embedded database', () => {
  it('makes the first administrator of a DEMO=0 server, whose printed link sets the password', async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const env = { DATA_DIR: dataDir, PUBLIC_URL: publicUrl };
    const usage = await adminCreate(env, []);
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('--email is required');

    const made = await adminCreate(env, ['--email', 'Director@Academy.example.org', '--name', 'Dana Director']);
    expect(made.code, made.out).toBe(0);
    expect(made.out).toContain('Administrator ready: director@academy.example.org (new account)');
    expect(made.out).toContain('Mail is not set up (SMTP_URL)');
    const link = linkIn(made.out);
    expect(link.startsWith(`${publicUrl}/login?reset_token=`)).toBe(true);

    const server = await startServerProcess({ ...CLEAN_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', PUBLIC_URL: publicUrl });
    try {
      expect(server.output()).toContain('Mail is off');
      // While the server holds the data directory, the command refuses and says what to do.
      const busy = await adminCreate(env, ['--email', 'second@academy.example.org']);
      expect(busy.code).toBe(1);
      expect(busy.out).toMatch(/A Passage server \(process \d+\) is running on .*stop the server, run npm run admin:create again/s);

      const base = `${publicUrl}/api/apps/passage`;
      const token = decodeURIComponent(new URL(link).searchParams.get('reset_token')!);
      const set = await post(base, '/auth/reset-password', { reset_token: token, new_password: 'director-pass-2026' });
      expect(set.status).toBe(200);
      const me = await fetch(`${base}/entities/User/me`, { headers: { authorization: `Bearer ${set.body.access_token}` } });
      expect(await me.json()).toMatchObject({ email: 'director@academy.example.org', full_name: 'Dana Director', role: 'admin', approved: true, is_verified: true });
      // An administrator can do an administrator's work: list users.
      const users = await fetch(`${base}/entities/User`, { headers: { authorization: `Bearer ${set.body.access_token}` } });
      expect(users.status).toBe(200);
    } finally {
      await stopChild(server.child);
    }
  }, 180_000);

  it('promotes an existing account and takes a password from standard input', async () => {
    const env = { DATA_DIR: dataDir };
    const short = await adminCreate(env, ['--email', 'director@academy.example.org', '--password-stdin'], 'short\n');
    expect(short.code).toBe(2);
    expect(short.out).toContain('Password must be at least 8 characters');

    const set = await adminCreate(env, ['--email', 'director@academy.example.org', '--password-stdin'], 'stdin-pass-2026\n');
    expect(set.code, set.out).toBe(0);
    expect(set.out).toContain('existing account, now an administrator');
    expect(set.out).not.toContain('reset_token');

    const port = await freePort();
    const server = await startServerProcess({ ...CLEAN_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0' });
    try {
      const signedIn = await post(`http://127.0.0.1:${port}/api/apps/passage`, '/auth/login', { email: 'director@academy.example.org', password: 'stdin-pass-2026' });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user).toMatchObject({ role: 'admin' });
    } finally {
      await stopChild(server.child);
    }
  }, 180_000);
});
