import { describe, expect, it } from 'vitest';
import { checkDevicePolicy, DEFAULT_DEVICE_POLICY, devicePolicyFromEnv } from '../../../server/device-policy';

describe('devicePolicyFromEnv (PIN_MIN_LENGTH, IDLE_LOCK_MINUTES)', () => {
  it('defaults to 8 digits and 15 minutes when unset or empty', () => {
    expect(DEFAULT_DEVICE_POLICY).toEqual({ pinMinLength: 8, idleLockMinutes: 15 });
    expect(devicePolicyFromEnv({})).toEqual({ pinMinLength: 8, idleLockMinutes: 15 });
    expect(devicePolicyFromEnv({ PIN_MIN_LENGTH: '', IDLE_LOCK_MINUTES: ' ' })).toEqual({ pinMinLength: 8, idleLockMinutes: 15 });
  });

  it('reads valid values, the bounds included, and fractions of a minute', () => {
    expect(devicePolicyFromEnv({ PIN_MIN_LENGTH: '6', IDLE_LOCK_MINUTES: '30' })).toEqual({ pinMinLength: 6, idleLockMinutes: 30 });
    expect(devicePolicyFromEnv({ PIN_MIN_LENGTH: '12', IDLE_LOCK_MINUTES: '0.05' })).toEqual({ pinMinLength: 12, idleLockMinutes: 0.05 });
    expect(devicePolicyFromEnv({ PIN_MIN_LENGTH: ' 8 ', IDLE_LOCK_MINUTES: '.5' })).toEqual({ pinMinLength: 8, idleLockMinutes: 0.5 });
    expect(devicePolicyFromEnv({ IDLE_LOCK_MINUTES: '2.' })).toEqual({ pinMinLength: 8, idleLockMinutes: 2 });
  });

  it('refuses PIN_MIN_LENGTH out of 6–12 (never below 6, issue #21.4) or not a whole number, naming the variable', () => {
    for (const bad of ['3', '4', '5', '13', '0', '-6', '6.5', '6 digits', 'six', '1e1', '0x6']) {
      expect(() => devicePolicyFromEnv({ PIN_MIN_LENGTH: bad }), bad).toThrow(/PIN_MIN_LENGTH/);
    }
  });

  it('refuses IDLE_LOCK_MINUTES of 0, above 30 or not a plain number, naming the variable', () => {
    for (const bad of ['0', '0.0', '30.01', '31', '-1', '1e1', 'Infinity', 'NaN', '15m', '0x10', '.']) {
      expect(() => devicePolicyFromEnv({ IDLE_LOCK_MINUTES: bad }), bad).toThrow(/IDLE_LOCK_MINUTES/);
    }
  });
});

describe('checkDevicePolicy', () => {
  it('fills in defaults and refuses what the environment would refuse', () => {
    expect(checkDevicePolicy()).toEqual(DEFAULT_DEVICE_POLICY);
    expect(checkDevicePolicy({ idleLockMinutes: 1 })).toEqual({ pinMinLength: 8, idleLockMinutes: 1 });
    expect(() => checkDevicePolicy({ pinMinLength: Number.NaN })).toThrow(/PIN_MIN_LENGTH/);
    expect(() => checkDevicePolicy({ idleLockMinutes: Number.POSITIVE_INFINITY })).toThrow(/IDLE_LOCK_MINUTES/);
  });
});
