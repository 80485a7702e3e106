/** The device functions on a real PostgreSQL server: the cases of device-key-cases.ts. */
import { afterAll, beforeAll, describe } from 'vitest';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { registerDeviceKeyTests } from './device-key-cases';
import { startTestServer, type TestServer } from './harness';

let s: TestServer;
let release = () => {};

describe.skipIf(!postgresInstalled)(`device functions on PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    const pg = await acquirePostgres();
    release = pg.release;
    s = await startTestServer({ databaseUrl: pg.url, appId: `dk-${Date.now().toString(36)}` });
  });
  afterAll(async () => {
    await s?.close();
    release();
  });
  registerDeviceKeyTests(() => s);
});
