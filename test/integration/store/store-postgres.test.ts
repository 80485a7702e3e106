import { afterAll, beforeAll, describe } from 'vitest';
import { createStore } from '../../../server/store';
import { SKIP_REASON, acquirePostgres, postgresInstalled } from './pg-test-cluster';
import { registerStoreContractTests } from './store-contract';

if (!postgresInstalled) console.warn(`Skipping the PostgreSQL store contract: ${SKIP_REASON}`);

describe.skipIf(!postgresInstalled)('PostgreSQL', () => {
  let url = '';
  let release = () => {};
  beforeAll(async () => {
    ({ url, release } = await acquirePostgres());
  });
  afterAll(() => release());

  // Every call opens its own pool on the same database, like separate server processes would.
  registerStoreContractTests('PostgreSQL', (opts) => createStore({ databaseUrl: url, ...opts }), { sharedDatabase: true });
});
