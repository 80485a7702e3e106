/**
 * Issue #23: a person's place in a cohort, as the server's permission table reads it
 * (server/auth/permissions.ts COHORT_WORK): administrators do everything; the lead coach schedules
 * the cohort's sessions; the lead and support coaches take its attendance. Screens ask these so
 * they never offer what the server would refuse.
 */
import type { Cohort, User } from '../../shared/entities';
import { placeInCohort } from '../../shared/cohort-place';

export type CohortRole = 'admin' | 'lead' | 'support' | 'none';

export function cohortRole(user: Pick<User, 'role' | 'email'> | null | undefined, cohort: Pick<Cohort, 'lead_coach_email' | 'support_coach_emails'> | null | undefined): CohortRole {
  if (!user) return 'none';
  if (user.role === 'admin') return 'admin';
  return placeInCohort(user.email, cohort);
}

export const canManageSessions = (role: CohortRole) => role === 'admin' || role === 'lead';
export const canTakeAttendance = (role: CohortRole) => role !== 'none';
/** Attendance exports are for administrators (reports to funders). */
export const canExportAttendance = (role: CohortRole) => role === 'admin';
