/**
 * The smallest SQL surface the store needs, with two adapters: embedded PGlite (a data directory, or
 * `memory://`) and a real PostgreSQL server through a `pg` Pool. Both speak the same SQL dialect, so
 * the store above is written once.
 */
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { lockDataDir } from './dir-lock';
import { isConnectionError, unavailable } from './errors';

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

/** 30 s per statement on both stores, unless createStore is told otherwise (tests use less). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/** What a statement that ran out of time throws, on PGlite as on PostgreSQL (SQLSTATE 57014). */
export class StatementTimeout extends Error {
  readonly code = '57014';
  constructor(ms: number) {
    super(`canceling statement due to statement timeout (${ms} ms)`);
    this.name = 'StatementTimeout';
  }
}

/** How long close() waits for statements still running before it abandons them. */
export const CLOSE_GRACE_MS = 5_000;

type Reply = { id: number; rows?: unknown[]; error?: { message: string; code?: string }; lost?: boolean };

/**
 * PGlite in a worker thread (pglite-worker.mjs), one statement at a time. `memory://` keeps nothing;
 * any other value is a directory on disk, locked for this process (dir-lock.ts) until close().
 *
 * Every statement runs under `statementTimeoutMs`. PostgreSQL's own statement_timeout cannot fire
 * inside WebAssembly, so the timeout is enforced here: the thread is terminated (the statement's
 * transaction is lost, as after a crash) and a fresh PGlite opens the same directory, so the next
 * request answers. A `memory://` database cannot be reopened: after a timeout it refuses every
 * statement rather than answer from an empty database. A statement PGlite answers without a result
 * (a lost error) is treated the same way, because PGlite is not usable after it.
 */
export async function openPglite(dataDir: string, statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS): Promise<SqlClient> {
  const inMemory = dataDir.startsWith('memory://');
  const unlock = inMemory ? () => {} : lockDataDir(dataDir);
  let worker: Worker;
  let nextId = 1;
  let closed = false;
  let closing = false;
  let broken: Error | null = null;
  const waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (err: Error) => void }>();

  const start = async (): Promise<Worker> => {
    const w = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir }, execArgv: [] });
    const ready = await new Promise<{ ready: boolean; error?: { message: string } }>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    if (!ready.ready) {
      await w.terminate();
      throw new Error(`PGlite could not open ${dataDir}: ${ready.error?.message}`);
    }
    w.on('message', (reply: Reply) => {
      const entry = waiting.get(reply.id);
      if (!entry) return;
      waiting.delete(reply.id);
      if (reply.error) {
        const err = Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {});
        if (reply.lost) void restart(err);
        entry.reject(err);
      } else entry.resolve(reply.rows ?? []);
    });
    w.on('error', (err) => void restart(err));
    return w;
  };

  const failAll = (err: Error) => {
    for (const [id, entry] of waiting) {
      waiting.delete(id);
      entry.reject(err);
    }
  };

  /** Ends the current thread (whatever it is doing) and opens the database again. */
  let restarting: Promise<void> | null = null;
  const restart = (cause: Error): Promise<void> => {
    if (restarting) return restarting;
    const old = worker;
    restarting = (async () => {
      failAll(cause);
      await old.terminate();
      if (closed || closing) return;
      if (inMemory) {
        broken = new Error(`The in-memory database stopped after: ${cause.message}`);
        return;
      }
      try {
        worker = await start();
      } catch (err) {
        broken = err as Error;
      }
    })().finally(() => {
      restarting = null;
    });
    return restarting;
  };

  const send = async (op: 'query' | 'close', sql = '', params: unknown[] = []): Promise<unknown[]> => {
    if (restarting) await restarting;
    if (broken) throw broken;
    if (closed && op !== 'close') throw new Error('The database is closed');
    const id = nextId++;
    return new Promise<unknown[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        const err = new StatementTimeout(statementTimeoutMs);
        void restart(err);
      }, statementTimeoutMs);
      waiting.set(id, {
        resolve: (rows) => {
          clearTimeout(timer);
          resolve(rows);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      worker.postMessage({ id, op, sql, params });
    });
  };

  // PGlite has one connection: statements run one at a time, and a transaction holds it throughout.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  };

  try {
    worker = await start();
  } catch (err) {
    unlock();
    throw err;
  }

  return {
    kind: 'pglite',
    query<T>(sql: string, params: unknown[] = []) {
      return exclusive(() => send('query', sql, params)) as Promise<T[]>;
    },
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>) {
      return exclusive(async () => {
        await send('query', 'BEGIN');
        try {
          const result = await fn({ query: async <R>(sql: string, params: unknown[] = []) => (await send('query', sql, params)) as R[] });
          await send('query', 'COMMIT');
          return result;
        } catch (err) {
          await send('query', 'ROLLBACK').catch(() => {});
          throw err;
        }
      });
    },
    async close() {
      if (closed || closing) return;
      closing = true;
      // Queued statements may finish (PGlite then closes cleanly, its files complete), but for
      // CLOSE_GRACE_MS at most: a statement still running after that is abandoned, as in a crash.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        exclusive(() => send('close').catch(() => [])),
        new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS))),
      ]);
      clearTimeout(grace);
      closed = true;
      failAll(new Error('The database is closed'));
      await worker.terminate();
      unlock();
    },
  };
}

/** Connections per server process unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 10;
/** How long a request waits for a new connection to PostgreSQL before it answers 503. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** A lost or refused connection becomes the store's `unavailable` (503 with Retry-After), not a 500. */
function asUnavailable(err: unknown): unknown {
  return isConnectionError(err) ? Object.assign(unavailable(), { cause: err }) : err;
}

/**
 * A pool of 10 connections (DEFAULT_POOL_SIZE): enough to keep one PostgreSQL busy from one Node
 * process, small enough that several server processes behind a load balancer stay under the default
 * max_connections (100). While PostgreSQL is down every statement fails fast with `unavailable`; the
 * pool opens fresh connections once it is back, so the server recovers by itself.
 */
export function openPostgres(databaseUrl: string, poolSize = 10, statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS): SqlClient {
  // 30 s per statement by default: far above any real query (a 5000-row page takes < 1 s), low
  // enough that a pathological query cannot hold a connection for good. Set on every connection.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, statement_timeout: statementTimeoutMs, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client losing its connection (server restart) must not crash the process; the pool
  // discards it and the next query opens a fresh one.
  pool.on('error', () => {});
  let closed = false;
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      try {
        return (await pool.query(sql, params)).rows as T[];
      } catch (err) {
        throw asUnavailable(err);
      }
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>) {
      const client = await pool.connect().catch((err) => {
        throw asUnavailable(err);
      });
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
        throw asUnavailable(err);
      } finally {
        client.release(broken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      // A statement still running (waiting on a lock, say) would hold pool.end() until it times
      // out; after CLOSE_GRACE_MS the pool is left to the process exit, which ends its sockets.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([pool.end(), new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(grace);
    },
  };
}
