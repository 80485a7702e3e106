/** A real PostgreSQL server through a `pg` Pool, behind the SqlClient surface (sql-client.ts). */
import pg from 'pg';
import { isConnectionError, unavailable } from './errors';
import { DEFAULT_READ_TIMEOUT_MS, NAMED_LOCKS, DEFAULT_STATEMENT_TIMEOUT_MS, CLOSE_GRACE_MS, checkChannel, Channels, type SqlExecutor, type NoticeListener, type SqlClient } from './sql-client';

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
