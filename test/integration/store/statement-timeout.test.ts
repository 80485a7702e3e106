/**
 * Hole 1 of issue #10, below the HTTP layer: a statement that never ends must not take the server
 * down. Every statement runs under a timeout on PGlite (enforced around its worker thread, since
 * PostgreSQL's statement_timeout cannot fire inside WebAssembly) and on PostgreSQL; a statement that
 * fails never looks like an empty result; closing never waits for a runaway statement.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../../server/store';
import { type SqlClient } from '../../../server/store/sql-client';
import { openPostgres } from '../../../server/store/pg-client';
import { openPglite } from '../../../server/store/pglite-client';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from './pg-test-cluster';
import { toHttpError } from '../../../server/errors';

const dir = mkdtempSync(join(tmpdir(), 'passage-timeout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves with how the promise settled and when, while proving the event loop kept running. */
async function settle<T>(work: Promise<T>) {
  const started = Date.now();
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 100);
  try {
    const value = await work;
    return { ok: true as const, value, ms: Date.now() - started, ticks };
  } catch (error) {
    return { ok: false as const, error: error as Error & { code?: string }, ms: Date.now() - started, ticks };
  } finally {
    clearInterval(ticker);
  }
}

describe('PGlite', () => {
  let sql: SqlClient;
  beforeAll(async () => {
    // 1 s: long enough for the event loop to tick ten times meanwhile, and no longer, since PGlite's
    // pg_sleep keeps its thread busy: each second a statement runs here is a second of CPU (#27.5).
    sql = await openPglite(join(dir, 'pglite'), 1000);
    await sql.query('CREATE TABLE t (x text)');
    await sql.query("INSERT INTO t VALUES ('Camp aaaa')");
  }, 120_000);
  afterAll(() => sql?.close());

  it('a statement past the timeout fails with 57014 instead of freezing the process, and the next one answers', async () => {
    const slow = await settle(sql.query('SELECT pg_sleep(60)'));
    expect(slow.ok).toBe(false);
    expect(slow.ok ? null : slow.error.code).toBe('57014');
    expect(slow.ms).toBeLessThan(15_000);
    expect(slow.ticks, 'the event loop ran while the statement did').toBeGreaterThan(5);
    expect(await sql.query('SELECT x FROM t')).toEqual([{ x: 'Camp aaaa' }]);
  }, 120_000);

  it('a statement PGlite answers without a result (a lost error) is an error, never an empty result', async () => {
    // Sent as raw SQL, past the $regex guard: PGlite loses PostgreSQL's "too complex" error here.
    const lost = await settle(sql.query("SELECT count(*) AS n FROM t WHERE x ~ '(a{1,255}){1,255}'"));
    expect(lost.ok).toBe(false);
    expect(await sql.query('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 1 }]);
  }, 120_000);

  it('issue #25.4: a read gets the short read timeout, a transaction the statement timeout', async () => {
    const own = await openPglite(join(dir, 'read-timeout'), 8_000, 400);
    try {
      const read = await settle(own.query('SELECT pg_sleep(3)'));
      expect(read.ok).toBe(false);
      expect(read.ok ? null : read.error.code).toBe('57014');
      expect(read.ms).toBeLessThan(7_000);
      const back = await settle(own.query('SELECT 1 AS one'));
      expect(back.ok && back.value).toEqual([{ one: 1 }]);
      console.log(`PGlite: read cut after ${read.ms} ms; the next statement answered ${back.ms} ms later (thread restarted)`);
      // Twice the read timeout: a transaction that had it would be cut.
      const write = await settle(own.transaction((tx) => tx.query('SELECT pg_sleep(0.8) AS slept')));
      expect(write.ok).toBe(true);
    } finally {
      await own.close();
    }
  }, 120_000);

  it('an in-memory database keeps the statement timeout for reads (a timeout would end it for good)', async () => {
    const own = await openPglite('memory://', 8_000, 300);
    try {
      expect((await settle(own.query('SELECT pg_sleep(0.6)'))).ok).toBe(true);
      expect(await own.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('close() does not wait for a runaway statement, and releases the data directory', async () => {
    // A grace of 1 s instead of the shipped CLOSE_GRACE_MS (5 s): PGlite's pg_sleep keeps its thread
    // busy, so each second of grace was a second of CPU (issue #27.5).
    const own = await openPglite(join(dir, 'closing'), 120_000, undefined, 1_000);
    const running = own.query('SELECT pg_sleep(120)').catch((err) => err);
    await new Promise((r) => setTimeout(r, 300));
    const closing = await settle(own.close());
    expect(closing.ok).toBe(true);
    expect(closing.ms).toBeLessThan(5_000);
    expect(await running).toBeInstanceOf(Error);
    const again = await openPglite(join(dir, 'closing'), 5_000);
    expect(await again.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await again.close();
  }, 120_000);
});

describe.skipIf(!postgresInstalled)(`PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  let url = '';
  let release = () => {};
  beforeAll(async () => {
    ({ url, release } = await acquirePostgres());
  });
  afterAll(() => release());

  it('a statement past the timeout fails with 57014, and the next one answers', async () => {
    const sql = openPostgres(url, 2, 1000);
    try {
      const slow = await settle(sql.query('SELECT pg_sleep(30)'));
      expect(slow.ok).toBe(false);
      expect(slow.ok ? null : slow.error.code).toBe('57014');
      expect(slow.ms).toBeLessThan(10_000);
      expect(await sql.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await sql.close();
    }
  }, 60_000);

  it('issue #25.4: a read gets the short read timeout, a transaction the statement timeout', async () => {
    const sql = openPostgres(url, 2, 8_000, 500);
    try {
      const read = await settle(sql.query('SELECT pg_sleep(3)'));
      expect(read.ok).toBe(false);
      expect(read.ok ? null : read.error.code).toBe('57014');
      expect(read.ms).toBeLessThan(2_500);
      const write = await settle(sql.transaction(async (tx) => tx.query('SELECT pg_sleep(1) AS slept')));
      expect(write.ok).toBe(true);
      // The transaction's SET LOCAL ended with it: the pooled connection reads under 500 ms again.
      const again = await settle(Promise.all([sql.query('SELECT pg_sleep(1)'), sql.query('SELECT pg_sleep(1)')]));
      expect(again.ok).toBe(false);
    } finally {
      await sql.close();
    }
  }, 60_000);

  it('a store read stuck behind a lock answers 503 QUERY_TIMEOUT, never an empty list', async () => {
    const store = await createStore({ databaseUrl: url, statementTimeoutMs: 1000 });
    const locker = new pg.Client({ connectionString: url });
    // An app of its own: the cluster may be one a developer keeps between runs (TEST_DATABASE_URL).
    const app = `timeout-app-${Date.now().toString(36)}`;
    await locker.connect();
    try {
      await store.create(app, 'Site', { site_name: 'Camp' }, { by: null, byId: null });
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE records IN ACCESS EXCLUSIVE MODE');
      const stuck = await settle(store.list(app, 'Site', {}));
      expect(stuck.ok).toBe(false);
      expect(toHttpError(stuck.error)).toMatchObject({ status: 503, code: 'QUERY_TIMEOUT' });
      await locker.query('ROLLBACK');
      expect((await store.list(app, 'Site', {})).map((r) => r.site_name)).toEqual(['Camp']);
    } finally {
      await locker.end();
      await store.close();
    }
  }, 60_000);
});
