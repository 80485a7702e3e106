import { describe, expect, it } from 'vitest';
import { filterCohorts } from '../../../src/domain/cohort-search';
import type { Cohort } from '../../../shared/entities';

describe('filterCohorts (issue #12.8)', () => {
  const cohorts: Cohort[] = [
    { id: 'a', program_id: 'p1', site_id: 's1', cohort_code: 'FL-SQ-2025Q1', status: 'active' },
    { id: 'b', program_id: 'p2', site_id: 's1', cohort_code: 'CA-SQ-2025Q2', status: null },
    { id: 'c', program_id: 'p2', site_id: 's2', cohort_code: 'CA-FC-2024Q3', status: 'completed' },
  ];
  const names = (c: Cohort) => ({ program: c.program_id === 'p1' ? 'Financial Literacy' : 'Culinary Arts', site: c.site_id === 's1' ? 'San Quentin' : 'Fire Camp 9' });
  const ids = (q: string, s: Parameters<typeof filterCohorts>[2]) => filterCohorts(cohorts, q, s, names).map((c) => c.id);

  it('matches code, program and site names case-blind; a missing status counts as planned', () => {
    expect(ids('', 'all')).toEqual(['a', 'b', 'c']);
    expect(ids('culinary', 'all')).toEqual(['b', 'c']);
    expect(ids('QUENTIN', 'all')).toEqual(['a', 'b']);
    expect(ids('2024', 'all')).toEqual(['c']);
    expect(ids('', 'planned')).toEqual(['b']);
    expect(ids('sq', 'active')).toEqual(['a']);
  });
});
