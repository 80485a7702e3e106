/**
 * Issue #23: a person's place in a cohort, by e-mail: its lead coach, one of its support coaches, or
 * neither. One rule for the server's permission check (server/routes/cohort-work.ts), the screens'
 * offers (src/domain/cohort-role.ts) and the Dashboard's "my sessions"; e-mails are compared
 * trimmed and without case, as sign-in compares them.
 */
export type CohortPlace = 'lead' | 'support' | 'none';

const norm = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : '');

export function placeInCohort(email: unknown, cohort: Readonly<Record<string, unknown>> | { lead_coach_email?: string | null; support_coach_emails?: string[] | null } | null | undefined): CohortPlace {
  const me = norm(email);
  if (!cohort || me === '') return 'none';
  if (norm(cohort.lead_coach_email) === me) return 'lead';
  const support = Array.isArray(cohort.support_coach_emails) ? cohort.support_coach_emails : [];
  return support.some((e) => norm(e) === me) ? 'support' : 'none';
}
