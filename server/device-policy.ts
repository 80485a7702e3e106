/**
 * The device policy every client is told with its device key (issue #14.2b): how long a PIN must be
 * and after how many idle minutes the app locks. Set by PIN_MIN_LENGTH and IDLE_LOCK_MINUTES
 * (main.ts); a value out of range stops the server from starting rather than weakening devices.
 */

export interface DevicePolicy {
  /** Digits a new PIN needs at least: a whole number, 6 to 12 (issue #21.4: never below 6). */
  pinMinLength: number;
  /** Minutes without use before the app locks: more than 0, at most 30 (fractions allowed). */
  idleLockMinutes: number;
}

export const DEFAULT_DEVICE_POLICY: DevicePolicy = { pinMinLength: 8, idleLockMinutes: 15 };

export const PIN_MIN_LENGTH_RANGE = [6, 12] as const;
export const IDLE_LOCK_MAX_MINUTES = 30;

/** The policy with defaults filled in; throws (naming the variable) when a value is out of range. */
export function checkDevicePolicy(policy: Partial<DevicePolicy> = {}): DevicePolicy {
  const out = { ...DEFAULT_DEVICE_POLICY, ...policy };
  const [minPin, maxPin] = PIN_MIN_LENGTH_RANGE;
  if (!Number.isInteger(out.pinMinLength) || out.pinMinLength < minPin || out.pinMinLength > maxPin) {
    throw new Error(`PIN_MIN_LENGTH must be a whole number from ${minPin} to ${maxPin} (got ${out.pinMinLength})`);
  }
  if (!Number.isFinite(out.idleLockMinutes) || out.idleLockMinutes <= 0 || out.idleLockMinutes > IDLE_LOCK_MAX_MINUTES) {
    throw new Error(`IDLE_LOCK_MINUTES must be a number of minutes above 0 and at most ${IDLE_LOCK_MAX_MINUTES} (got ${out.idleLockMinutes})`);
  }
  return out;
}

/**
 * PIN_MIN_LENGTH and IDLE_LOCK_MINUTES from the environment; unset or empty → the default. Only
 * plain decimal numbers count ("1e1", "0x10", "Infinity" and "6 digits" are refused, not guessed).
 */
export function devicePolicyFromEnv(env: Record<string, string | undefined>): DevicePolicy {
  const pin = env.PIN_MIN_LENGTH?.trim();
  const idle = env.IDLE_LOCK_MINUTES?.trim();
  if (pin && !/^\d+$/.test(pin)) throw new Error(`PIN_MIN_LENGTH must be a whole number (got "${pin}")`);
  if (idle && !/^(\d+(\.\d*)?|\.\d+)$/.test(idle)) throw new Error(`IDLE_LOCK_MINUTES must be a number of minutes (got "${idle}")`);
  return checkDevicePolicy({
    ...(pin ? { pinMinLength: Number(pin) } : {}),
    ...(idle ? { idleLockMinutes: Number(idle) } : {}),
  });
}
