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

/** Told each notice's payload; `null` when notices may have been missed (the listening connection was lost). */
export type NoticeListener = (payload: string | null) => void;

export interface SqlClient extends SqlExecutor {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * LISTEN on `channel` (issue #24.2): `listener` hears every NOTIFY on it after commit, from this
   * process or any other on the same database, until the returned function is called.
   */
  listen(channel: string, listener: NoticeListener): Promise<() => Promise<void>>;
  /**
   * Runs `work` holding the lock `name` (issue #25.2: the demo seed): across every server process
   * on one PostgreSQL (a session advisory lock on a connection of its own, waited for without a
   * timeout); on PGlite within this process, the only one its data directory admits.
   */
  withLock<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

/**
 * Issue #25.4: statements outside a transaction (reads, and single-row writes by key) get this
 * much, unless createStore is told otherwise; transactions (creates, updates, bulk writes,
 * migrations) get the statement timeout. A read past it is answered 503 QUERY_TIMEOUT.
 */
export const DEFAULT_READ_TIMEOUT_MS = 3_000;

/** Advisory-lock namespace of withLock ("LOCK" in ASCII); the name's hash is the second key. */
const NAMED_LOCKS = 0x4c4f434b;

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

type Reply = { id: number; rows?: unknown[]; error?: { message: string; code?: string }; lost?: boolean; notice?: { channel: string; payload: string } };

/** Channel names are ours (a fixed identifier), never input: checked so LISTEN can name them unquoted. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): string {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  return channel;
}

/** Listeners by channel, shared by both adapters. */
class Channels {
  private readonly byName = new Map<string, Set<NoticeListener>>();
  get names(): string[] {
    return [...this.byName.keys()];
  }
  /** Whether this is the channel's first listener (the caller then LISTENs). */
  add(channel: string, listener: NoticeListener): boolean {
    let set = this.byName.get(channel);
    const first = !set;
    if (!set) this.byName.set(channel, (set = new Set()));
    set.add(listener);
    return first;
  }
  /** Whether the channel has no listener left (the caller then UNLISTENs). */
  remove(channel: string, listener: NoticeListener): boolean {
    const set = this.byName.get(channel);
    set?.delete(listener);
    if (set && set.size === 0) this.byName.delete(channel);
    return !this.byName.has(channel);
  }
  tell(channel: string, payload: string | null): void {
    for (const listener of this.byName.get(channel) ?? []) {
      try {
        listener(payload);
      } catch {
        // One listener's bug must not keep the notice from the others.
      }
    }
  }
  tellAll(payload: string | null): void {
    for (const channel of this.names) this.tell(channel, payload);
  }
}

/**
 * PGlite in a worker thread (pglite-worker.mjs), one statement at a time. `memory://` keeps nothing;
 * any other value is a directory on disk, locked for this process (dir-lock.ts) until close().
 *
 * Statements of a transaction run under `statementTimeoutMs`, others (reads) under the shorter
 * `readTimeoutMs` (issue #25.4). PostgreSQL's own statement_timeout cannot fire
 * inside WebAssembly, so the timeout is enforced here: the thread is terminated (the statement's
 * transaction is lost, as after a crash) and a fresh PGlite opens the same directory, so the next
 * request answers. A `memory://` database cannot be reopened: after a timeout it refuses every
 * statement rather than answer from an empty database. A statement PGlite answers without a result
 * (a lost error) is treated the same way, because PGlite is not usable after it.
 */
export async function openPglite(
  dataDir: string,
  statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS,
  readTimeoutMs = DEFAULT_READ_TIMEOUT_MS,
): Promise<SqlClient> {
  const inMemory = dataDir.startsWith('memory://');
  // Reads outside a transaction get the shorter timeout; a `memory://` database keeps the longer
  // one for everything, since a timeout there ends it for good (see above).
  const readMs = inMemory ? statementTimeoutMs : Math.min(readTimeoutMs, statementTimeoutMs);
  const locks = new Map<string, Promise<unknown>>();
  const unlock = inMemory ? () => {} : lockDataDir(dataDir);
  let worker: Worker;
  let nextId = 1;
  let closed = false;
  let closing = false;
  let broken: Error | null = null;
  const waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (err: Error) => void }>();
  const channels = new Channels();

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
      if (reply.notice) return channels.tell(reply.notice.channel, reply.notice.payload);
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
        // The new thread listens again; what was notified meanwhile is unknown (null to every listener).
        for (const channel of channels.names) worker.postMessage({ id: nextId++, op: 'listen', sql: channel });
        channels.tellAll(null);
      } catch (err) {
        broken = err as Error;
      }
    })().finally(() => {
      restarting = null;
    });
    return restarting;
  };

  const send = async (
    op: 'query' | 'close' | 'listen' | 'unlisten',
    sql = '',
    params: unknown[] = [],
    timeoutMs = statementTimeoutMs,
  ): Promise<unknown[]> => {
    if (restarting) await restarting;
    // PGlite could not be opened again (after a timeout): as unreachable as a stopped PostgreSQL.
    if (broken) throw Object.assign(unavailable(), { cause: broken });
    if (closed && op !== 'close') throw new Error('The database is closed');
    const id = nextId++;
    return new Promise<unknown[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        const err = new StatementTimeout(timeoutMs);
        void restart(err);
      }, timeoutMs);
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
      return exclusive(() => send('query', sql, params, readMs)) as Promise<T[]>;
    },
    withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
      const run = (locks.get(name) ?? Promise.resolve()).then(work, work);
      const settled = run.catch(() => {});
      locks.set(name, settled);
      void settled.then(() => {
        if (locks.get(name) === settled) locks.delete(name);
      });
      return run;
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
    async listen(channel: string, listener: NoticeListener) {
      // PGlite is one connection in one process: its own NOTIFYs reach its own LISTEN at commit.
      if (channels.add(checkChannel(channel), listener)) await exclusive(() => send('listen', channel));
      return async () => {
        if (channels.remove(channel, listener) && !closed && !closing) await exclusive(() => send('unlisten', channel)).catch(() => {});
      };
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
export function openPostgres(
  databaseUrl: string,
  poolSize = 10,
  statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS,
  readTimeoutMs = DEFAULT_READ_TIMEOUT_MS,
): SqlClient {
  // Every connection starts with the read timeout (3 s by default: a 5000-row page takes < 1 s, and
  // a runaway read cannot hold a pooled connection for long); a transaction raises it to the
  // statement timeout (30 s) for its own statements with SET LOCAL, sent with its BEGIN.
  const readMs = Math.min(readTimeoutMs, statementTimeoutMs);
  const begin = readMs === statementTimeoutMs ? 'BEGIN' : `BEGIN; SET LOCAL statement_timeout = ${Math.floor(statementTimeoutMs)}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, statement_timeout: readMs, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client losing its connection (server restart) must not crash the process; the pool
  // discards it and the next query opens a fresh one.
  pool.on('error', () => {});
  let closed = false;
  const listening = pgListener(databaseUrl);
  return {
    kind: 'postgres',
    listen: (channel, listener) => listening.listen(checkChannel(channel), listener),
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
        await client.query(begin);
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
    async withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
      const client = await pool.connect().catch((err) => {
        throw asUnavailable(err);
      });
      let broken = false;
      try {
        // Waiting for another instance's seed may take a while: no timeout on this connection.
        await client.query('SET statement_timeout = 0');
        await client.query(`SELECT pg_advisory_lock(${NAMED_LOCKS}, hashtext($1))`, [name]);
        try {
          return await work();
        } finally {
          await client.query(`SELECT pg_advisory_unlock(${NAMED_LOCKS}, hashtext($1))`, [name]).catch(() => {
            broken = true; // the lock ends with the connection
          });
        }
      } finally {
        if (!broken) await client.query('RESET statement_timeout').catch(() => (broken = true));
        client.release(broken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await listening.close();
      // A statement still running (waiting on a lock, say) would hold pool.end() until it times
      // out; after CLOSE_GRACE_MS the pool is left to the process exit, which ends its sockets.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([pool.end(), new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(grace);
    },
  };
}

/** How long a lost listening connection waits before it reconnects: 1 s doubling to 30 s. */
const RELISTEN_MS = { first: 1_000, cap: 30_000 };

/**
 * The one connection of this process that LISTENs (issue #24.2), opened at the first listen: a
 * pooled connection cannot listen (it is handed to other queries between statements). When it is
 * lost (database restart, network), it reconnects with backoff and LISTENs again; notices sent
 * while it was away are lost, so every listener then hears `null` ("anything may have changed").
 */
function pgListener(databaseUrl: string) {
  const channels = new Channels();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let retryMs = RELISTEN_MS.first;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const connect = (): Promise<void> => {
    if (connecting) return connecting;
    connecting = (async () => {
      const next = new pg.Client({ connectionString: databaseUrl });
      next.on('notification', (msg) => channels.tell(msg.channel, msg.payload ?? ''));
      let lost = false;
      const onLost = () => {
        if (lost) return;
        lost = true;
        if (client === next) client = null;
        next.end().catch(() => {});
        if (!closed && channels.names.length) scheduleReconnect();
      };
      next.on('error', onLost);
      next.on('end', onLost);
      try {
        await next.connect();
        for (const channel of channels.names) await next.query(`LISTEN ${channel}`);
      } catch (err) {
        onLost();
        throw err;
      }
      if (closed) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      retryMs = RELISTEN_MS.first;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const scheduleReconnect = () => {
    if (retryTimer) return;
    const delay = retryMs;
    retryMs = Math.min(retryMs * 2, RELISTEN_MS.cap);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => channels.tellAll(null),
        () => {}, // onLost scheduled the next try
      );
    }, delay);
    retryTimer.unref();
  };

  return {
    async listen(channel: string, listener: NoticeListener): Promise<() => Promise<void>> {
      const first = channels.add(channel, listener);
      // A database out of reach now is not the caller's failure: the reconnect above keeps trying.
      if (!client) await connect().catch(() => {});
      else if (first) await client.query(`LISTEN ${channel}`);
      return async () => {
        if (channels.remove(channel, listener)) await client?.query(`UNLISTEN ${channel}`).catch(() => {});
      };
    },
    async close(): Promise<void> {
      closed = true;
      clearTimeout(retryTimer);
      await connecting?.catch(() => {});
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
