/** The two storage backends the bench compares, each with its raw SQL handle for index checks. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresStore } from '../../../server/store/postgres-store';
import { type SqlClient } from '../../../server/store/sql-client';
import { openPostgres } from '../../../server/store/pg-client';
import { openPglite } from '../../../server/store/pglite-client';
import type { Store } from '../../../server/store/types';
// @ts-expect-error scripts/pg-cluster.mjs is plain JavaScript without type declarations
import { postgresAvailable, startCluster } from '../../../scripts/pg-cluster.mjs';

export interface Backend {
  name: string;
  store: Store;
  sql: SqlClient;
  dispose: () => Promise<void>;
}

/** PGlite on disk in a temporary directory, as `npm start` runs it (DATA_DIR). */
export async function pgliteBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), 'passage-bench-'));
  const sql = await openPglite(join(dir, 'data'));
  const store = createPostgresStore(sql);
  await store.migrate();
  return { name: 'PGlite', store, sql, dispose: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); } };
}

/** BENCH_DATABASE_URL, or a throwaway PostgreSQL 15 cluster; null when neither is available. */
export async function postgresBackend(): Promise<Backend | null> {
  let url = process.env.BENCH_DATABASE_URL;
  let stop = () => {};
  if (!url) {
    if (!postgresAvailable()) return null;
    const cluster = (await startCluster()) as { url: string; stop: () => void };
    ({ url, stop } = cluster);
  }
  const sql = openPostgres(url!);
  const store = createPostgresStore(sql);
  await store.migrate();
  return { name: 'PostgreSQL', store, sql, dispose: async () => { await store.close(); stop(); } };
}
