/**
 * The device functions on PGlite (the shared cases: device-key-cases.ts), and the device policy as
 * createApp's option sets it (PIN_MIN_LENGTH, IDLE_LOCK_MINUTES in main.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { registerDeviceKeyTests } from './device-key-cases';
import { APP, newDeviceId, SECRET, startTestServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ store: 'pglite' });
});
afterAll(() => s?.close());

describe('device functions (deviceKey, deviceStatus, listDevices, revokeDevice, revokeUser) on PGlite', () => {
  registerDeviceKeyTests(() => s);
});

describe('the device policy', () => {
  it('follows the createApp options', async () => {
    const strict = await startTestServer({ devicePolicy: { pinMinLength: 8, idleLockMinutes: 0.05 } });
    try {
      const { token } = await strict.signIn('coach');
      const res = await strict.request('POST', `/api/apps/${APP}/functions/deviceKey`, { token, body: { device_id: newDeviceId() } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { policy: unknown }).policy).toEqual({ pin_min_length: 8, idle_lock_minutes: 0.05 });
    } finally {
      await strict.close();
    }
  });

  it('is checked by createApp: a policy out of range is refused, never served', () => {
    const make = (devicePolicy: Record<string, number>) => () => createApp({ store: s.store, appId: APP, jwtSecret: SECRET, devicePolicy });
    expect(make({ pinMinLength: 3 })).toThrow(/PIN_MIN_LENGTH/);
    expect(make({ pinMinLength: 6.5 })).toThrow(/PIN_MIN_LENGTH/);
    expect(make({ idleLockMinutes: 0 })).toThrow(/IDLE_LOCK_MINUTES/);
    expect(make({ idleLockMinutes: 31 })).toThrow(/IDLE_LOCK_MINUTES/);
    expect(make({ pinMinLength: 12, idleLockMinutes: 30 })).not.toThrow();
  });
});
