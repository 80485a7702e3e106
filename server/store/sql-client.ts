/**
 * The smallest SQL surface the store needs, with two adapters: embedded PGlite (a data directory, or
 * `memory://`) and a real PostgreSQL server through a `pg` Pool. Both speak the same SQL dialect, so
 * the store above is written once.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { lockDataDir } from './dir-lock';

export interface SqlExecutor {
  /** Runs one parameterised statement ($1, $2, …) and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface SqlClient extends SqlExecutor {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

/**
 * PGlite runs in this process; `memory://` keeps nothing, any other value is a directory on disk,
 * locked for this process (dir-lock.ts) until close().
 */
export async function openPglite(dataDir: string): Promise<SqlClient> {
  const unlock = dataDir.startsWith('memory://') ? () => {} : lockDataDir(dataDir);
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir);
  } catch (err) {
    unlock();
    throw err;
  }
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    // PGlite has one connection; its transaction() holds it exclusively, so concurrent callers queue.
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>) {
      return db.transaction(async (tx) =>
        fn({ query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows }),
      );
    },
    async close() {
      if (!db.closed) await db.close();
      unlock();
    },
  };
}

/**
 * A pool of 10 connections: enough to keep one PostgreSQL busy from one Node process, small enough
 * that several server processes behind a load balancer stay under the default max_connections (100).
 */
export function openPostgres(databaseUrl: string, poolSize = 10): SqlClient {
  // 30 s per statement: far above any real query (a 5000-row page takes < 1 s), low enough that a
  // pathological $regex over a big table cannot hold a connection for good.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, statement_timeout: 30_000 });
  // An idle client losing its connection (server restart) must not crash the process; the pool
  // discards it and the next query opens a fresh one.
  pool.on('error', () => {});
  let closed = false;
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true; // the connection itself failed: drop it instead of pooling it again
        });
        throw err;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
