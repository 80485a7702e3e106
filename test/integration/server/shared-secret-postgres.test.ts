/**
 * Issue #25.3: one secret for every instance on one PostgreSQL. Two server processes (main.ts),
 * each with its own DATA_DIR and no JWT_SECRET, share one database and one SMTP server: a token,
 * a reset link, a verification code and a one-time sign-in code from instance A work on B. An
 * instance that had its own DATA_DIR/jwt-secret before keeps its tokens valid (the file's secret
 * moves into the database once). JWT_SECRET shorter than 32 bytes stops the start, naming it.
 * Also `npm run admin:create` on PostgreSQL, mailing its link, while both servers run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, stopChild } from '../../support/processes';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { CLEAN_ENV, adminCreate } from './admin-create-cli';
import { linkOf, startMailServer, type TestMailServer } from './mail-test-server';

const APP_ID = `two-${Date.now().toString(36)}`;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'passage-two-'));
  dirs.push(d);
  return d;
};

let url = '';
let release = () => {};
let smtp: TestMailServer;
let a: Awaited<ReturnType<typeof startServerProcess>> | undefined;
let b: Awaited<ReturnType<typeof startServerProcess>> | undefined;
let baseA = '';
let baseB = '';
let secretBefore: string | null = null;
// Made anew each run: on a cluster kept between runs (TEST_DATABASE_URL), the secret an earlier
// run moved into the database was this file's, so A was not told its file differs.
const FILE_SECRET = `a-secret-instance-A-made-before-the-upgrade-${Date.now().toString(36)}-0123456789`;

async function storedSecret(): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'jwt-secret'`).catch(() => ({ rows: [] }));
    return rows.rows[0]?.value ?? null;
  } finally {
    await client.end();
  }
}

const post = async (base: string, path: string, body: unknown, token?: string) => {
  const res = await fetch(`${base}/api/apps/${APP_ID}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe.skipIf(!postgresInstalled)(`two instances on one PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    ({ url, release } = await acquirePostgres());
    smtp = await startMailServer();
    secretBefore = await storedSecret();
    const dirA = tempDir();
    // Instance A ran before the upgrade and made its own secret file.
    writeFileSync(join(dirA, 'jwt-secret'), FILE_SECRET + '\n', { mode: 0o600 });
    const [portA, portB] = [await freePort(), await freePort()];
    baseA = `http://127.0.0.1:${portA}`;
    baseB = `http://127.0.0.1:${portB}`;
    const common = { ...CLEAN_ENV, HOST: '127.0.0.1', DATABASE_URL: url, APP_ID, SMTP_URL: smtp.url, MAIL_FROM: 'Passage <passage@academy.example.org>', PUBLIC_URL: 'https://passage.academy.example.org' };
    a = await startServerProcess({ ...common, PORT: String(portA), DATA_DIR: dirA, DEMO: '1' });
    b = await startServerProcess({ ...common, PORT: String(portB), DATA_DIR: tempDir(), DEMO: '0' });
  }, 240_000);
  afterAll(async () => {
    if (a) await stopChild(a.child);
    if (b) await stopChild(b.child);
    await smtp?.close();
    release();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('moves an existing instance secret into the database once, so its tokens stay valid', async () => {
    const stored = await storedSecret();
    if (secretBefore === null) {
      expect(stored, 'the file secret became the shared one').toBe(FILE_SECRET);
      expect(a!.output()).toContain('into the database (table server_secrets)');
    } else {
      // A database another suite set up first keeps its secret; A is told its file is not used.
      expect(stored).toBe(secretBefore);
      expect(a!.output()).toContain('differs from the secret in the database');
    }
    expect(b!.output()).not.toContain('generated and kept');
  });

  it('accepts on B a token signed on A', async () => {
    const login = await post(baseA, '/auth/login', { email: 'coach@example.org', password: 'demo-pass-2026' });
    expect(login.status).toBe(200);
    const me = await fetch(`${baseB}/api/apps/${APP_ID}/entities/User/me`, { headers: { authorization: `Bearer ${login.body.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'coach@example.org' });
  });

  it('takes on B the reset link A mailed', async () => {
    const since = smtp.received.length;
    expect((await post(baseA, '/auth/reset-password-request', { email: 'newcoach@example.org' })).status).toBe(200);
    const { link, token } = linkOf(await smtp.next('newcoach@example.org', since));
    expect(link.startsWith('https://passage.academy.example.org/login?reset_token=')).toBe(true);
    const reset = await post(baseB, '/auth/reset-password', { reset_token: token, new_password: 'newcoach-pass-2027' });
    expect(reset.status).toBe(200);
    expect((await post(baseA, '/auth/login', { email: 'newcoach@example.org', password: 'newcoach-pass-2027' })).status).toBe(200);
  });

  it('verifies on B the code A mailed at sign-up', async () => {
    const since = smtp.received.length;
    expect((await post(baseA, '/auth/register', { email: 'walk.in@academy.example.org', password: 'walkin-pass-2026' })).status).toBe(200);
    const mail = await smtp.next('walk.in@academy.example.org', since);
    const code = /code is (\d{6})/.exec(mail.text ?? '')![1];
    const verified = await post(baseB, '/auth/verify-otp', { email: 'walk.in@academy.example.org', otp_code: code });
    expect(verified.status).toBe(200);
  });

  it('exchanges on B the one-time sign-in code of A’s sign-in page', async () => {
    const form = await fetch(`${baseA}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'admin@example.org', password: 'demo-pass-2026', from_url: '/' }).toString(),
    });
    expect(form.status).toBe(303);
    const code = new URL(form.headers.get('location')!, baseA).searchParams.get('code')!;
    const exchanged = await post(baseB, '/auth/exchange', { code });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.user).toMatchObject({ email: 'admin@example.org' });
  });

  it('admin:create on PostgreSQL mails a set-password link that works on either instance, while both run', async () => {
    const since = smtp.received.length;
    const made = await adminCreate(
      { DATABASE_URL: url, APP_ID, DATA_DIR: tempDir(), SMTP_URL: smtp.url, MAIL_FROM: 'Passage <passage@academy.example.org>', PUBLIC_URL: 'https://passage.academy.example.org' },
      ['--email', 'ops.lead@academy.example.org', '--name', 'Ola Ops'],
    );
    expect(made.code, made.out).toBe(0);
    expect(made.out).toContain('A set-password link was mailed to o***@academy.example.org');
    expect(made.out, 'the link is not shown when it was mailed').not.toContain('reset_token');
    const mail = await smtp.next('ops.lead@academy.example.org', since);
    expect(mail.subject).toBe('Set your Passage administrator password');
    const { token } = linkOf(mail);
    const set = await post(baseB, '/auth/reset-password', { reset_token: token, new_password: 'ops-lead-pass-2026' });
    expect(set.status).toBe(200);
    expect(set.body.user).toMatchObject({ role: 'admin', approved: true });
  }, 120_000);

  it('refuses to start with a JWT_SECRET shorter than 32 bytes, naming it', async () => {
    const port = await freePort();
    await expect(
      startServerProcess({ ...CLEAN_ENV, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: url, APP_ID, DATA_DIR: tempDir(), DEMO: '0', JWT_SECRET: 'too-short-secret' }),
    ).rejects.toThrow(/JWT_SECRET must be at least 32 bytes/);
  }, 120_000);
});
