/**
 * Hole 1 of issue #10 at the process level: SIGTERM ended nothing while a statement was stuck in the
 * database. server/main.ts runs as a real process on PostgreSQL; the test holds a lock on the table
 * a sign-in reads, so the request is stuck mid-query (statement timeout 60 s), then sends SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../../support/processes';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';

const dataDir = mkdtempSync(join(tmpdir(), 'passage-shutdown-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const APP_ID = `shutdown-${Date.now().toString(36)}`;


describe.skipIf(!postgresInstalled)(`SIGTERM ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  it('ends the process within 10 s even while a request is stuck mid-query', async () => {
    const { url, release } = await acquirePostgres();
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    const port = await freePort();
    const server = await startServerProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', JWT_SECRET: '', DATABASE_URL: url, APP_ID, STATEMENT_TIMEOUT_MS: '60000' });
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
