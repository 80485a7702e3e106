import { describe, expect, it } from 'vitest';
import { countOccupancy, occupancyLabel, occupancyOf } from '../../../src/domain/occupancy';

const enrollments = [
  { cohort_id: 'c1', enrollment_status: 'active' },
  { cohort_id: 'c1', enrollment_status: 'active' },
  { cohort_id: 'c1', enrollment_status: 'withdrawn' },
  { cohort_id: 'c1', enrollment_status: 'graduated' },
  { cohort_id: 'c1', enrollment_status: 'waitlist' },
  { cohort_id: 'c2', enrollment_status: 'withdrawn' },
];

describe('countOccupancy', () => {
  const counts = countOccupancy(enrollments);

  it('counts every enrollment of any status for the list reading', () => {
    expect(occupancyOf(counts, 'c1', 'all')).toBe(5);
    expect(occupancyOf(counts, 'c2', 'all')).toBe(1);
  });

  it('counts only active enrollments for the detail reading', () => {
    expect(occupancyOf(counts, 'c1', 'active')).toBe(2);
    expect(occupancyOf(counts, 'c2', 'active')).toBe(0);
  });

  it('gives 0 for a cohort without enrollments', () => {
    expect(occupancyOf(counts, 'nope', 'all')).toBe(0);
    expect(occupancyOf(counts, 'nope', 'active')).toBe(0);
  });
});

describe('occupancyLabel', () => {
  it("shows the count over the capacity, or '∞'", () => {
    expect(occupancyLabel(3, 20)).toBe('3 / 20');
    expect(occupancyLabel(0, null)).toBe('0 / ∞');
  });
});
