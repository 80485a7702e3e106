import type { Cohort } from '../../shared/entities';

/**
 * Summaries over a group of cohorts (the cohorts of one program or one site), for ProgramDetail
 * and SiteDetail (spec 2.12, 2.13). Pure: the pages pass what the live queries returned.
 */

/** Distinct non-empty values of a reference field, in first-seen order (cohorts are newest first). */
export function distinctRefs(cohorts: readonly Cohort[], field: 'program_id' | 'site_id'): string[] {
  return [...new Set(cohorts.map((c) => c[field]).filter(Boolean))];
}

/**
 * Distinct lead and support coach emails. Emails are compared case-insensitively (people type
 * 'Lee@Example.org' and 'lee@example.org' for one person); the first spelling seen is kept.
 */
export function distinctCoachEmails(cohorts: readonly Cohort[]): string[] {
  const seen = new Map<string, string>();
  for (const c of cohorts) {
    for (const email of [c.lead_coach_email, ...(c.support_coach_emails ?? [])]) {
      const trimmed = email?.trim();
      if (trimmed && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
    }
  }
  return [...seen.values()];
}

/** Cohorts whose status is active (default planned does not count). */
export function countActiveCohorts(cohorts: readonly Cohort[]): number {
  return cohorts.filter((c) => c.status === 'active').length;
}
