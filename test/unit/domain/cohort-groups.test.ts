import { describe, expect, it } from 'vitest';
import { countActiveCohorts, distinctCoachEmails, distinctRefs } from '../../../src/domain/cohort-groups';
import type { Cohort } from '../../../shared/entities';

const c = (over: Partial<Cohort>): Cohort => ({ id: 'x', program_id: 'p', site_id: 's', cohort_code: 'X', ...over });

describe('cohort groups', () => {
  it('lists distinct sites or programs in first-seen order', () => {
    const cohorts = [c({ site_id: 's2' }), c({ site_id: 's1' }), c({ site_id: 's2' }), c({ site_id: '' })];
    expect(distinctRefs(cohorts, 'site_id')).toEqual(['s2', 's1']);
  });

  it('merges lead and support coach emails without duplicates (case-insensitive)', () => {
    const cohorts = [
      c({ lead_coach_email: 'lee@example.org', support_coach_emails: ['ann@example.org', ' '] }),
      c({ lead_coach_email: 'Lee@Example.org', support_coach_emails: null }),
      c({ lead_coach_email: null, support_coach_emails: ['bo@example.org', 'ann@example.org'] }),
    ];
    expect(distinctCoachEmails(cohorts)).toEqual(['lee@example.org', 'ann@example.org', 'bo@example.org']);
  });

  it('counts only cohorts with status active', () => {
    expect(countActiveCohorts([c({ status: 'active' }), c({ status: 'planned' }), c({ status: null }), c({ status: 'active' })])).toBe(2);
  });
});
