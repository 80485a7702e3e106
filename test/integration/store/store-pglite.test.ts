import { createStore } from '../../../server/store';
import { registerStoreContractTests } from './store-contract';

registerStoreContractTests('in-memory PGlite', (opts) => createStore({ dataDir: 'memory://', ...opts }), {
  // Each in-memory PGlite is its own database, so "several processes on one database" cannot apply.
  sharedDatabase: false,
});
