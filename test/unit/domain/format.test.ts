import { describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import { formatDate, formatDateTime, formatWeekdayDateTime, todayISO } from '../../../src/domain/format';

/**
 * The display formats are written out by hand (issue #11.6: date-fns `format` weighed a third of the
 * Dashboard's JavaScript); they must say exactly what date-fns said for spec 9's patterns.
 */
describe('display formats (spec 9) match date-fns', () => {
  // Every 7 h 13 min across three years: all months, both halves of the day, midnight and noon hours.
  const start = new Date(2023, 0, 1, 0, 0).getTime();
  const moments = Array.from({ length: 3 * 365 * 24 / 7 }, (_, i) => new Date(start + i * (7 * 60 + 13) * 60_000));

  it("formatDate is 'MMM d, yyyy'", () => {
    for (const d of moments) expect(formatDate(d.toISOString())).toBe(format(d, 'MMM d, yyyy'));
    expect(formatDate('2025-01-05')).toBe('Jan 5, 2025');
    expect(formatDate('0987-12-31')).toBe(format(new Date(987, 11, 31), 'MMM d, yyyy'));
  });

  it("formatDateTime is 'MMM d, h:mm a'", () => {
    for (const d of moments) expect(formatDateTime(d.toISOString())).toBe(format(d, 'MMM d, h:mm a'));
    expect(formatDateTime(new Date(2025, 0, 5, 0, 7).toISOString())).toBe('Jan 5, 12:07 AM');
    expect(formatDateTime(new Date(2025, 0, 5, 12, 30).toISOString())).toBe('Jan 5, 12:30 PM');
  });

  it("formatWeekdayDateTime is 'EEE, MMM d, h:mm a'", () => {
    for (const d of moments) expect(formatWeekdayDateTime(d.toISOString())).toBe(format(d, 'EEE, MMM d, h:mm a'));
    expect(formatWeekdayDateTime('2025-01-21T09:30:00')).toBe('Tue, Jan 21, 9:30 AM');
    expect(formatWeekdayDateTime(null, 'Not scheduled')).toBe('Not scheduled');
  });

  it("todayISO is 'yyyy-MM-dd' in local time", () => {
    for (const d of moments) expect(todayISO(d)).toBe(format(d, 'yyyy-MM-dd'));
  });

  it('empty or unparseable values give the fallback', () => {
    expect(formatDate(null, 'Not set')).toBe('Not set');
    expect(formatDate('not a date', 'N/A')).toBe('N/A');
    expect(formatDateTime(undefined)).toBe('');
  });
});
