import { describe, expect, it } from 'vitest';
import { deviceKek, newDeviceKey, unwrapDeviceKey, wrapDeviceKey } from '../../../server/auth/device-keys';

describe('device keys at rest (issue #21)', () => {
  const kek = deviceKek('a-test-secret-that-is-long-enough-000');
  const place = { app: 'passage', userId: 'u1', deviceId: 'device-0123456789' };

  it('wraps with AES-256-GCM: the stored bytes do not contain the key, and unwrap to it', () => {
    const key = newDeviceKey();
    const wrapped = wrapDeviceKey(kek, place, key);
    expect(wrapped).toHaveLength(61);
    expect(Buffer.from(wrapped).includes(Buffer.from(key))).toBe(false);
    expect(Buffer.from(unwrapDeviceKey(kek, place, wrapped))).toEqual(Buffer.from(key));
    // A fresh IV each time: the same key never wraps to the same bytes.
    expect(Buffer.from(wrapDeviceKey(kek, place, key))).not.toEqual(Buffer.from(wrapped));
  });

  it('does not unwrap at another place, under another secret, or altered', () => {
    const wrapped = wrapDeviceKey(kek, place, newDeviceKey());
    expect(() => unwrapDeviceKey(kek, { ...place, deviceId: 'device-other-000000' }, wrapped)).toThrow();
    expect(() => unwrapDeviceKey(kek, { ...place, userId: 'u2' }, wrapped)).toThrow();
    expect(() => unwrapDeviceKey(kek, { ...place, app: 'other' }, wrapped)).toThrow();
    expect(() => unwrapDeviceKey(deviceKek('another-secret-another-secret-00'), place, wrapped)).toThrow();
    const flipped = new Uint8Array(wrapped);
    flipped[40] ^= 1;
    expect(() => unwrapDeviceKey(kek, place, flipped)).toThrow();
  });

  it('derives the key-encryption key, never uses the secret itself', () => {
    const secret = 'a-test-secret-that-is-long-enough-000';
    expect(deviceKek(secret)).toHaveLength(32);
    expect(deviceKek(secret).toString('utf8')).not.toContain(secret.slice(0, 32));
    expect(deviceKek(secret)).toEqual(deviceKek(secret));
  });
});
