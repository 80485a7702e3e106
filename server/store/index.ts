/**
 * `createStore(...)`: the server's only way to open storage. A `databaseUrl` selects a real
 * PostgreSQL server; otherwise PGlite runs embedded in `dataDir` (`memory://` for tests).
 * The returned store is migrated and ready.
 */
import { createPostgresStore } from './postgres-store';
import { openPglite, openPostgres } from './sql-client';
import type { Store } from './types';

export interface CreateStoreOptions {
  /** PGlite data directory, or `memory://`; ignored when databaseUrl is set. Default `./data`. */
  dataDir?: string;
  /** postgres://… of a PostgreSQL server. */
  databaseUrl?: string;
  /** Clock in ms since the epoch (tests inject one). */
  now?: () => number;
  /** Longest a statement may run, on PGlite and PostgreSQL alike (default 30 s). */
  statementTimeoutMs?: number;
  /** Told what migrations could not do (a unique index left out over duplicates); default console.warn. */
  warn?: (message: string) => void;
  /** PostgreSQL connections this process may hold (DATABASE_POOL_SIZE); default 10. */
  poolSize?: number;
}

export async function createStore(options: CreateStoreOptions = {}): Promise<Store> {
  let sql;
  if (options.databaseUrl) {
    sql = openPostgres(options.databaseUrl, options.poolSize, options.statementTimeoutMs);
  } else {
    sql = await openPglite(options.dataDir ?? './data', options.statementTimeoutMs);
  }
  const store = createPostgresStore(sql, { now: options.now, warn: options.warn });
  try {
    await store.migrate();
  } catch (err) {
    await sql.close();
    throw err;
  }
  return store;
}

export type { Store } from './types';
