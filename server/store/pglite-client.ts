/** Embedded PGlite behind the SqlClient surface (sql-client.ts). */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { lockDataDir } from './dir-lock';
import { unavailable } from './errors';
import { DEFAULT_READ_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS, StatementTimeout, CLOSE_GRACE_MS, checkChannel, Channels, type SqlExecutor, type NoticeListener, type SqlClient } from './sql-client';

type Reply = { id: number; rows?: unknown[]; error?: { message: string; code?: string }; lost?: boolean; notice?: { channel: string; payload: string } };

/**
 * PGlite's PostgreSQL (9 MB of WebAssembly) compiled once per process and handed to every thread
 * that opens a database: a thread given a compiled module shares its machine code instead of
 * compiling it again. Each open of a database compiled it anew, about 1.2 CPU-seconds of the 1.7
 * an open cost; a server opens one database (and again after a statement timeout), a test process
 * dozens (issue #27.5). A compile that failed is tried again at the next open.
 */
let compiled: Promise<WebAssembly.Module> | null = null;
function pgliteModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    compiled = readFile(createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm')).then((bytes) => WebAssembly.compile(bytes));
    compiled.catch(() => (compiled = null));
  }
  return compiled;
}

/**
 * PGlite in a worker thread (pglite-worker.mjs), one statement at a time. `memory://` keeps nothing;
 * any other value is a directory on disk, locked for this process (dir-lock.ts) until close().
 *
 * Statements of a transaction run under `statementTimeoutMs`, others (reads) under the shorter
 * `readTimeoutMs` (issue #25.4). PostgreSQL's own statement_timeout cannot fire
 * inside WebAssembly, so the timeout is enforced here: the thread is terminated (the statement's
 * transaction is lost, as after a crash) and a fresh PGlite opens the same directory, so the next
 * request answers. A new database starts from the dump PGLITE_TEMPLATE names, when set (the tests
 * set it: test/support/pglite-template.ts). A `memory://` database cannot be reopened: after a timeout it refuses every
 * statement rather than answer from an empty database. A statement PGlite answers without a result
 * (a lost error) is treated the same way, because PGlite is not usable after it. close() lets
 * statements still running finish for `closeGraceMs` at most, then abandons them.
 */
export async function openPglite(
  dataDir: string,
  statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS,
  readTimeoutMs = DEFAULT_READ_TIMEOUT_MS,
  closeGraceMs = CLOSE_GRACE_MS,
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
    const wasmModule = await pgliteModule();
    const w = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir, template: process.env.PGLITE_TEMPLATE || undefined, wasmModule }, execArgv: [] });
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
      // closeGraceMs at most: a statement still running after that is abandoned, as in a crash.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        exclusive(() => send('close').catch(() => [])),
        new Promise((resolve) => (grace = setTimeout(resolve, closeGraceMs))),
      ]);
      clearTimeout(grace);
      closed = true;
      failAll(new Error('The database is closed'));
      await worker.terminate();
      unlock();
    },
  };
}
