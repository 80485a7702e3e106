import { describe, expect, it } from 'vitest';
import { ageFromDob } from '../../../src/domain/age';

const on = (y: number, m: number, d: number) => new Date(y, m - 1, d, 12);

describe('ageFromDob (spec 5: whole years, minus one before this year\'s birthday)', () => {
  it('counts the full year on the birthday itself', () => {
    expect(ageFromDob('1990-06-15', on(2025, 6, 15))).toBe(35);
  });
  it('is one less the day before the birthday', () => {
    expect(ageFromDob('1990-06-15', on(2025, 6, 14))).toBe(34);
  });
  it('is one less in an earlier month of the year', () => {
    expect(ageFromDob('1990-12-01', on(2025, 3, 1))).toBe(34);
  });
  it('counts the year once a later month is reached', () => {
    expect(ageFromDob('1990-01-31', on(2025, 2, 1))).toBe(35);
  });
  it('treats a 29 February birthday as not yet come on 28 February of a common year', () => {
    expect(ageFromDob('2004-02-29', on(2025, 2, 28))).toBe(20);
    expect(ageFromDob('2004-02-29', on(2025, 3, 1))).toBe(21);
  });
  it('reads the date as a local date, not UTC midnight', () => {
    // new Date('2000-01-01') is Dec 31 1999 west of Greenwich; the age must not depend on the zone.
    expect(ageFromDob('2000-01-01', on(2025, 1, 1))).toBe(25);
  });
  it('is 0 for a baby and null for an empty, invalid or future date', () => {
    expect(ageFromDob('2025-01-01', on(2025, 6, 1))).toBe(0);
    expect(ageFromDob('', on(2025, 6, 1))).toBeNull();
    expect(ageFromDob(null, on(2025, 6, 1))).toBeNull();
    expect(ageFromDob('not a date', on(2025, 6, 1))).toBeNull();
    expect(ageFromDob('2102-01-01', on(2025, 6, 1))).toBeNull();
  });
});
