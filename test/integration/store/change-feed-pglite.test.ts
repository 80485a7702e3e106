import { createPostgresStore } from '../../../server/store/postgres-store';
import { openPglite } from '../../../server/store/pglite-client';
import { registerChangeFeedContract } from './change-feed-contract';

// Each in-memory PGlite is its own database. It has one connection, so statements (and whole
// transactions) run one at a time: a slow writer cannot be open while a fast one commits, and the
// concurrent-writer case runs on PostgreSQL only (change-feed-postgres.test.ts).
registerChangeFeedContract('in-memory PGlite', async () => {
  const sql = await openPglite('memory://');
  const store = createPostgresStore(sql);
  await store.migrate();
  return { store, sql, close: () => store.close() };
});
