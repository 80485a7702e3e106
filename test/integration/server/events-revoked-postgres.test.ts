/**
 * Issue #24.4 (S18) on PostgreSQL with two server instances: an administrator revokes a tablet
 * through instance A; the tablet's change stream on instance B says `revoked` at B's next
 * keep-alive tick (B re-checks its streams' tokens with Store.tokenStanding, one statement).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createChangeStreams, type ChangeStreams } from '../../../server/http/change-streams';
import { createStore, type Store } from '../../../server/store/index';
import { readSse } from '../../support/sse-reader';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { newDeviceId, SECRET, startTestServer, type TestServer } from './harness';

const appId = `revoked-${Date.now().toString(36)}`;
let a: TestServer;
let storeB: Store;
let streamsB: ChangeStreams;
let appB: ReturnType<typeof createApp>;
let release = () => {};

describe.skipIf(!postgresInstalled)(`a revocation reaches a stream on another instance ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    let url: string;
    ({ url, release } = await acquirePostgres());
    a = await startTestServer({ databaseUrl: url, appId, changeStreams: { keepAliveMs: 10 * 60_000 } });
    storeB = await createStore({ databaseUrl: url });
    streamsB = createChangeStreams(storeB, { keepAliveMs: 300 });
    appB = createApp({ store: storeB, appId, jwtSecret: SECRET, changeStreams: streamsB, now: () => new Date(a.clock.ms) });
  });
  afterAll(async () => {
    await streamsB?.close();
    await storeB?.close();
    await a?.close();
    release();
  });

  it('revoked through instance A → event: revoked on instance B at its next tick; other tokens stay', async () => {
    const deviceId = newDeviceId();
    const { token } = await a.signIn('coach', { deviceId });
    expect((await a.request('POST', `/api/apps/${appId}/functions/deviceKey`, { token, body: { device_id: deviceId } })).status).toBe(200);
    const open = (t: string) => appB.request(`http://b/api/apps/${appId}/events`, { headers: { authorization: `Bearer ${t}` } });
    const res = await open(token);
    expect(res.status).toBe(200);
    const stream = readSse(res);
    const adminStream = readSse(await open((await a.signIn('admin')).token));
    try {
      await stream.until((t) => t.split(': keep-alive').length > 2);
      expect(stream.text()).not.toContain('event:');
      const admin = (await a.signIn('admin')).token;
      const revoked = await a.request('POST', `/api/apps/${appId}/functions/revokeDevice`, { token: admin, body: { device_id: deviceId } });
      expect(revoked.status).toBe(200);
      await stream.ended(3_000);
      expect(stream.text().endsWith('event: revoked\ndata: {}\n\n')).toBe(true);
      // The administrator's own stream on B passed every tick's check and is still open.
      const seen = adminStream.text().length;
      await adminStream.until((t) => t.slice(seen).includes(': keep-alive'));
      expect(adminStream.text()).not.toContain('event: revoked');
      expect(streamsB.size).toBe(1);
    } finally {
      await Promise.all([stream.cancel(), adminStream.cancel()]);
    }
  });
});
