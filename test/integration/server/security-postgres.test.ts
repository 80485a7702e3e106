/** Hole 2 of issue #10 (lost updates in auth) on a real PostgreSQL server: see auth-races.ts. */
import { afterAll, beforeAll, describe } from 'vitest';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { registerAuthRaceTests } from './auth-races';
import { startTestServer, type TestServer } from './harness';

let s: TestServer;
let release = () => {};

describe.skipIf(!postgresInstalled)(`auth races on PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    const pg = await acquirePostgres();
    release = pg.release;
    s = await startTestServer({ databaseUrl: pg.url, appId: `sec-${Date.now().toString(36)}`, withPasswords: true });
  });
  afterAll(async () => {
    await s?.close();
    release();
  });
  registerAuthRaceTests(() => s);
});
