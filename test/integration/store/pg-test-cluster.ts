/**
 * The PostgreSQL the store tests run against: TEST_DATABASE_URL when scripts/test.mjs set it,
 * otherwise a throwaway cluster started here (scripts/pg-cluster.mjs). `null` only when PostgreSQL
 * is not installed at all, so the suite can say why it skipped.
 */
// @ts-expect-error scripts/pg-cluster.mjs is plain JavaScript without type declarations
import { postgresAvailable, startCluster } from '../../../scripts/pg-cluster.mjs';

export const postgresInstalled: boolean = Boolean(process.env.TEST_DATABASE_URL) || postgresAvailable();
export const SKIP_REASON = 'PostgreSQL is not installed (no TEST_DATABASE_URL and no /usr/lib/postgresql/15/bin)';

export async function acquirePostgres(): Promise<{ url: string; release: () => void }> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, release: () => {} };
  const cluster = (await startCluster()) as { url: string; stop: () => void };
  return { url: cluster.url, release: cluster.stop };
}
