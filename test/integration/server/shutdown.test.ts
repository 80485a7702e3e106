/**
 * Hole 1 of issue #10 at the process level: SIGTERM ended nothing while a statement was stuck in the
 * database. server/main.ts runs as a real process on PostgreSQL; the test holds a lock on the table
 * a sign-in reads, so the request is stuck mid-query (statement timeout 60 s), then sends SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/processes';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';

const ROOT = resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'passage-shutdown-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const APP_ID = `shutdown-${Date.now().toString(36)}`;

async function boot(port: number, databaseUrl: string): Promise<{ child: ChildProcess; output: () => string }> {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', JWT_SECRET: '', DATABASE_URL: databaseUrl, APP_ID, STATEMENT_TIMEOUT_MS: '60000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 90_000;
  while (!out.includes('Passage is running at')) {
    if (child.exitCode !== null) throw new Error(`exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`no start-up line:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out };
}

describe.skipIf(!postgresInstalled)(`SIGTERM ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  it('ends the process within 10 s even while a request is stuck mid-query', async () => {
    const { url, release } = await acquirePostgres();
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    const port = await freePort();
    const server = await boot(port, url);
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE auth_records IN ACCESS EXCLUSIVE MODE');
      // A sign-in reads auth_records: it waits on the lock, mid-query.
      let answered = false;
      const stuck = fetch(`http://127.0.0.1:${port}/api/apps/${APP_ID}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.org', password: 'whatever-password' }),
      })
        .then(() => (answered = true))
        .catch(() => null);
      await new Promise((r) => setTimeout(r, 1500));
      expect(answered, 'the request is still waiting on the lock').toBe(false);

      const started = Date.now();
      const exited = new Promise<number | null>((res) => server.child.once('exit', (code) => res(code)));
      server.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      const took = Date.now() - started;
      expect(server.child.exitCode ?? server.child.signalCode, server.output()).not.toBeNull();
      expect(took).toBeLessThan(10_000);
      await stuck;
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end();
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      release();
    }
  }, 180_000);
});
