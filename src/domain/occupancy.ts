import { formatCapacity } from './capacity';
import type { EnrollmentStatus } from '../../shared/entities';

/**
 * Cohort occupancy, in the two readings of spec 4:
 * - 'all': every enrollment of the cohort, of any status (the Cohorts list card);
 * - 'active': active enrollments only (CohortDetail, ProgramDetail, all Active stats).
 */
export type OccupancyReading = 'all' | 'active';

/** The part of an enrollment occupancy needs (index keys are enough: no full rows). */
export interface EnrollmentKey {
  cohort_id: string;
  enrollment_status: EnrollmentStatus | string | null | undefined;
}

export interface OccupancyCounts {
  all: Map<string, number>;
  active: Map<string, number>;
}

/** Both counts per cohort id, built in one pass so a list of cards never counts per card. */
export function countOccupancy(enrollments: Iterable<EnrollmentKey>): OccupancyCounts {
  const all = new Map<string, number>();
  const active = new Map<string, number>();
  for (const e of enrollments) {
    all.set(e.cohort_id, (all.get(e.cohort_id) ?? 0) + 1);
    if (e.enrollment_status === 'active') active.set(e.cohort_id, (active.get(e.cohort_id) ?? 0) + 1);
  }
  return { all, active };
}

/** The count of one cohort under a reading (0 when it has no enrollments). */
export function occupancyOf(counts: OccupancyCounts, cohortId: string, reading: OccupancyReading): number {
  return counts[reading].get(cohortId) ?? 0;
}

/** '{n} / {capacity or ∞}' — followed by ' enrolled' on cards. */
export function occupancyLabel(count: number, capacity: number | null | undefined): string {
  return `${count} / ${formatCapacity(capacity)}`;
}
