import { describe, expect, it } from 'vitest';
import { capacityError, formatCapacity, parseCapacity } from '../../../src/domain/capacity';

describe('parseCapacity', () => {
  it('reads whole numbers', () => {
    expect(parseCapacity('25')).toBe(25);
    expect(parseCapacity(' 7 ')).toBe(7);
    expect(parseCapacity(12)).toBe(12);
  });

  it('saves text that does not parse as a number as null (spec 5)', () => {
    expect(parseCapacity('abc')).toBeNull();
    expect(parseCapacity('12 seats')).toBeNull();
    expect(parseCapacity('')).toBeNull();
    expect(parseCapacity('   ')).toBeNull();
    expect(parseCapacity(null)).toBeNull();
    expect(parseCapacity(undefined)).toBeNull();
  });

  it('cuts fractions to whole seats', () => {
    expect(parseCapacity('19.9')).toBe(19);
  });
});

describe('formatCapacity', () => {
  it("shows '∞' when there is no capacity", () => {
    expect(formatCapacity(null)).toBe('∞');
    expect(formatCapacity(undefined)).toBe('∞');
    expect(formatCapacity(0)).toBe('0');
    expect(formatCapacity(20)).toBe('20');
  });
});

describe('capacityError', () => {
  it('rejects capacities below 1 and accepts empty (unlimited)', () => {
    expect(capacityError('0')).toBe('Capacity must be at least 1');
    expect(capacityError('-3')).toBe('Capacity must be at least 1');
    expect(capacityError('1')).toBeNull();
    expect(capacityError('')).toBeNull();
  });
});

describe('isFull (issue #12.2)', () => {
  it('is full when active enrollments reach a set capacity; never when unlimited', async () => {
    const { isFull } = await import('../../../src/domain/capacity');
    expect(isFull(11, 12)).toBe(false);
    expect(isFull(12, 12)).toBe(true);
    expect(isFull(13, 12)).toBe(true);
    expect(isFull(500, null)).toBe(false);
    expect(isFull(0, undefined)).toBe(false);
  });
});
