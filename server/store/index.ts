/**
 * `createStore(...)`: the server's only way to open storage. A `databaseUrl` selects a real
 * PostgreSQL server; otherwise PGlite runs embedded in `dataDir` (`memory://` for tests).
 * The returned store is migrated and ready.
 */
import { createPostgresStore } from './postgres-store';
import { openPostgres } from './pg-client';
import { openPglite } from './pglite-client';
import type { Store } from './types';

export interface CreateStoreOptions {
  /** PGlite data directory, or `memory://`; ignored when databaseUrl is set. Default `./data`. */
  dataDir?: string;
  /** postgres://… of a PostgreSQL server. */
  databaseUrl?: string;
  /** Clock in ms since the epoch (tests inject one). */
  now?: () => number;
  /** Issue #26: record no audit events (the bench's on/off comparison only; PGlite only). */
  auditOff?: boolean;
  /** Longest a statement of a transaction (a write) may run, on PGlite and PostgreSQL alike (default 30 s). */
  statementTimeoutMs?: number;
  /** Longest a statement outside a transaction (a read) may run (default 3 s; never above statementTimeoutMs). */
  readTimeoutMs?: number;
  /** Told what migrations could not do (a unique index left out over duplicates); default console.warn. */
  warn?: (message: string) => void;
  /** PostgreSQL connections this process may hold (DATABASE_POOL_SIZE); default 10. */
  poolSize?: number;
}

export async function createStore(options: CreateStoreOptions = {}): Promise<Store> {
  let sql;
  if (options.databaseUrl) {
    sql = openPostgres(options.databaseUrl, options.poolSize, options.statementTimeoutMs, options.readTimeoutMs);
  } else {
    sql = await openPglite(options.dataDir ?? './data', options.statementTimeoutMs, options.readTimeoutMs);
  }
  const store = createPostgresStore(sql, { now: options.now, warn: options.warn, auditOff: options.auditOff });
  try {
    await store.migrate();
  } catch (err) {
    await sql.close();
    throw err;
  }
  return store;
}

export type { Store } from './types';
