/**
 * The one rule for a device PIN (issue #14.2, #21.4): digits only, at least the policy's minimum
 * (the server's PIN_MIN_LENGTH, 6 to 12, default 8) and at most PIN_MAX_LENGTH. The Set a PIN screen
 * says why a PIN is refused with it; the vault refuses to wrap the key with any other.
 */
export const PIN_MAX_LENGTH = 12;

/** Why `pin` is not allowed, in words for the person typing it; null when it is. */
export function pinProblem(pin: string, minLength: number): string | null {
  if (!/^\d*$/.test(pin)) return 'The PIN must be digits only.';
  if (pin.length < minLength) return `The PIN must be at least ${minLength} digits.`;
  if (pin.length > PIN_MAX_LENGTH) return `The PIN must be at most ${PIN_MAX_LENGTH} digits.`;
  return null;
}
