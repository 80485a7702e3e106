/**
 * Issue #24.4 (S18): the change stream also says when its tablet was revoked, so an idle tablet
 * need not ask deviceStatus every minute. On embedded PGlite: an administrator's revocation
 * through this instance is told at once (`event: revoked`, no reason) and the stream ends; one
 * written straight into the store (as another instance would) is told at the next keep-alive tick;
 * a token whose session was revoked ends its stream without an event, and its reopen is a 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../../support/sse-reader';
import { newDeviceId, startTestServer, type TestServer } from './harness';

const EVENTS = '/api/apps/passage/events';
const FN = (name: string) => `/api/apps/passage/functions/${name}`;
const REVOKED = 'event: revoked\ndata: {}\n\n';

/** Ticks far beyond a test's length: whatever the stream says, it says at once. */
let slow: TestServer;
/** A 200 ms tick: what the stream learns from the store, it says within one. */
let quick: TestServer;

beforeAll(async () => {
  [slow, quick] = await Promise.all([
    startTestServer({ changeStreams: { keepAliveMs: 10 * 60_000 }, store: 'pglite' }),
    startTestServer({ changeStreams: { keepAliveMs: 200 }, store: 'pglite' }),
  ]);
});
afterAll(async () => {
  await Promise.all([slow?.close(), quick?.close()]);
});

/** A coach's tablet as it runs: a session for a device the server knows (its key was released). */
async function tablet(s: TestServer) {
  const deviceId = newDeviceId();
  const { token, sid } = await s.signIn('coach', { deviceId });
  const key = await s.request('POST', FN('deviceKey'), { token, body: { device_id: deviceId } });
  expect(key.status).toBe(200);
  return { deviceId, token, sid };
}

async function openStream(s: TestServer, token: string) {
  const res = await s.request('GET', EVENTS, { token });
  expect(res.status).toBe(200);
  const stream = readSse(res);
  await stream.until((t) => t.includes(': connected'));
  return stream;
}

describe('the change stream tells a revoked tablet (issue #24.4, S18)', () => {
  it('says revoked at once when an administrator revokes the device here, and ends', async () => {
    const coach = await tablet(slow);
    const other = await tablet(slow);
    const stream = await openStream(slow, coach.token);
    const bystander = await openStream(slow, other.token);
    try {
      const admin = (await slow.signIn('admin')).token;
      const res = await slow.request('POST', FN('revokeDevice'), { token: admin, body: { device_id: coach.deviceId, reason: 'Left on the bus' } });
      expect(res.status).toBe(200);
      await stream.ended(2_000);
      expect(stream.text().endsWith(REVOKED)).toBe(true);
      // The reason is deviceStatus's to say, never the stream's.
      expect(stream.text()).not.toContain('bus');
      // The coach's other tablet is not revoked: its stream stays open and says nothing.
      expect(bystander.text()).not.toContain('revoked');
      expect(slow.changeStreams.size).toBe(1);
      const status = await slow.request('POST', FN('deviceStatus'), { token: coach.token, body: { device_id: coach.deviceId } });
      expect(await status.json()).toMatchObject({ status: 'revoked', mode: 'flush', reason: 'Left on the bus' });
    } finally {
      await Promise.all([stream.cancel(), bystander.cancel()]);
    }
  });

  it('says revoked at once to a stream a device revoked in mode flush opens (it may still send)', async () => {
    const coach = await tablet(slow);
    expect(await slow.store.revokeDevices(slow.appId, { deviceId: coach.deviceId }, 'flush', 'Returned')).toBe(1);
    const res = await slow.request('GET', EVENTS, { token: coach.token });
    expect(res.status).toBe(200);
    const stream = readSse(res);
    try {
      await stream.ended(2_000);
      expect(stream.text().endsWith(REVOKED)).toBe(true);
    } finally {
      await stream.cancel();
    }
  });

  it('says revoked on every tablet of a user the administrator revokes, at once', async () => {
    const a = await tablet(slow);
    const b = await tablet(slow);
    const streams = [await openStream(slow, a.token), await openStream(slow, b.token)];
    try {
      const admin = (await slow.signIn('admin')).token;
      const res = await slow.request('POST', FN('revokeUser'), { token: admin, body: { user_id: slow.users.coach.id } });
      expect(res.status).toBe(200);
      for (const stream of streams) {
        await stream.ended(2_000);
        expect(stream.text().endsWith(REVOKED)).toBe(true);
      }
      expect(slow.changeStreams.size).toBe(0);
    } finally {
      await Promise.all(streams.map((s) => s.cancel()));
    }
  });

  it('says revoked at the next tick when another instance revoked the device (straight into the store)', async () => {
    const coach = await tablet(quick);
    const stream = await openStream(quick, coach.token);
    try {
      // Several ticks pass on a tablet in good standing: keep-alives, nothing else.
      await stream.until((t) => t.split(': keep-alive').length > 3);
      expect(stream.text()).not.toContain('event:');
      expect(await quick.store.revokeDevices(quick.appId, { deviceId: coach.deviceId }, 'erase', 'Stolen')).toBe(1);
      await stream.ended(2_000);
      expect(stream.text().endsWith(REVOKED)).toBe(true);
    } finally {
      await stream.cancel();
    }
  });

  it('ends the stream of a revoked session without an event; the reopen is refused with 401', async () => {
    const coach = await tablet(quick);
    const stream = await openStream(quick, coach.token);
    try {
      expect(await quick.store.revokeSessions(quick.appId, [coach.sid], 'signed out')).toBe(1);
      await stream.ended(2_000);
      expect(stream.text()).not.toContain('event:');
      const again = await quick.request('GET', EVENTS, { token: coach.token });
      expect(again.status).toBe(401);
      expect(await again.json()).toMatchObject({ code: 'SESSION_REVOKED' });
    } finally {
      await stream.cancel();
    }
  });

  it('ends the stream of a user disabled since it opened, without an event', async () => {
    const { token } = await quick.signIn('admin');
    const stream = await openStream(quick, token);
    try {
      await quick.store.update(quick.appId, 'User', quick.users.admin.id, { disabled: true });
      await stream.ended(2_000);
      // The write itself is a `changed` notice like any other; nothing says revoked.
      expect(stream.text()).not.toContain('event: revoked');
    } finally {
      await stream.cancel();
    }
  });
});
