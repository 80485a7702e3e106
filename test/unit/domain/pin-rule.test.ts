import { describe, expect, it } from 'vitest';
import { PIN_MAX_LENGTH, pinProblem } from '../../../src/domain/pin-rule';

describe('the PIN rule (issues #14.2, #21.4): one place for the vault and the Set a PIN screen', () => {
  it('allows digits only, from the policy minimum to 12', () => {
    expect(pinProblem('12345678', 8)).toBeNull();
    expect(pinProblem('1'.repeat(PIN_MAX_LENGTH), 8)).toBeNull();
    expect(pinProblem('123456', 6)).toBeNull();
  });

  it('says why a PIN is refused, in words for the person typing it', () => {
    expect(pinProblem('1234567', 8)).toBe('The PIN must be at least 8 digits.');
    expect(pinProblem('', 6)).toBe('The PIN must be at least 6 digits.');
    expect(pinProblem('1'.repeat(PIN_MAX_LENGTH + 1), 8)).toBe('The PIN must be at most 12 digits.');
    expect(pinProblem('1234abcd', 8)).toBe('The PIN must be digits only.');
    expect(pinProblem('1234 5678', 8)).toBe('The PIN must be digits only.');
  });
});
