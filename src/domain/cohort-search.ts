import type { Cohort } from '../../shared/entities';

/**
 * The Cohorts list's search and status filter (issue #12.8: "search text and filters on Cohorts";
 * spec 2.8 lists none, so these are ours). The text matches the code, program name and site name,
 * case-insensitively; the status filter reads a missing status as 'planned' (spec 2.8's default).
 */
export type CohortStatusFilter = 'all' | 'planned' | 'active' | 'completed';

export const COHORT_STATUS_OPTIONS: { value: CohortStatusFilter; label: string }[] = [
  { value: 'all', label: 'All Status' },
  { value: 'planned', label: 'Planned' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
];

export function filterCohorts(
  cohorts: readonly Cohort[],
  query: string,
  status: CohortStatusFilter,
  names: (c: Cohort) => { program?: string | null; site?: string | null },
): Cohort[] {
  const q = query.trim().toLowerCase();
  return cohorts.filter((c) => {
    if (status !== 'all' && (c.status || 'planned') !== status) return false;
    if (!q) return true;
    const { program, site } = names(c);
    return [c.cohort_code, program, site].some((text) => (text ?? '').toLowerCase().includes(q));
  });
}
