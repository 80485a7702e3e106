/** Issue #21's one-time sign-in code and sessions on a real PostgreSQL server: sign-in-cases.ts. */
import { afterAll, beforeAll, describe } from 'vitest';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { registerSignInTests } from './sign-in-cases';
import { startTestServer, type TestServer } from './harness';

let s: TestServer;
let release = () => {};

describe.skipIf(!postgresInstalled)(`one-time sign-in code and sessions on PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    const pg = await acquirePostgres();
    release = pg.release;
    s = await startTestServer({ databaseUrl: pg.url, appId: `si-${Date.now().toString(36)}`, withPasswords: true });
  });
  afterAll(async () => {
    await s?.close();
    release();
  });
  registerSignInTests(() => s);
});
