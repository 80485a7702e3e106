/** Entity shapes of spec.md section 3, as the mirror and the screens see them. */

export interface ServerFields {
  id: string;
  created_date?: string;
  updated_date?: string;
  created_by?: string | null;
  created_by_id?: string | null;
  /** Set on records created on this device: the UUID that makes a create idempotent (S3). */
  client_ref?: string;
}

export const CUSTODY_STATUSES = ['in-custody', 'released'] as const;
export type CustodyStatus = (typeof CUSTODY_STATUSES)[number];
export const PROGRAM_STATUSES = ['active', 'completed', 'on_hold', 'withdrawn'] as const;
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number];
export const GENDERS = ['male', 'female', 'nonbinary', 'prefer not to say'] as const;
export type Gender = (typeof GENDERS)[number];

export interface Participant extends ServerFields {
  academy_uid?: string | null;
  first_name: string;
  last_name: string;
  middle_name?: string | null;
  date_of_birth?: string | null;
  age?: number | null;
  gender?: Gender | null;
  phone?: string | null;
  email?: string | null;
  address?: string | null;
  cdcr_number?: string | null;
  custody_status?: CustodyStatus | null;
  projected_release_date?: string | null;
  actual_release_date?: string | null;
  case_manager?: string | null;
  address_on_release?: string | null;
  emergency_contact_name?: string | null;
  emergency_contact_phone?: string | null;
  emergency_contact_relationship?: string | null;
  consent_signed?: boolean | null;
  consent_date?: string | null;
  program_status?: ProgramStatus | null;
  enrollment_date?: string | null;
  /** Issue #23.7: ids of possible duplicates the coach reviewed at intake and marked as another person. */
  different_person_from?: string[] | null;
}

export const ENROLLMENT_STATUSES = ['active', 'waitlist', 'withdrawn', 'graduated'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

export interface Enrollment extends ServerFields {
  participant_id: string;
  cohort_id: string;
  intake_date?: string | null;
  enrollment_status: EnrollmentStatus;
}

export const COHORT_STATUSES = ['planned', 'active', 'completed'] as const;
export type CohortStatus = (typeof COHORT_STATUSES)[number];

export interface Cohort extends ServerFields {
  program_id: string;
  site_id: string;
  cohort_code: string;
  start_date?: string | null;
  end_date?: string | null;
  schedule_notes?: string | null;
  capacity?: number | null;
  status?: CohortStatus | null;
  lead_coach_email?: string | null;
  support_coach_emails?: string[] | null;
}

export interface Program extends ServerFields {
  program_name: string;
  description?: string | null;
  active?: boolean | null;
}

export const SITE_TYPES = ['prison', 'juvenile', 'fire_camp', 'community'] as const;
export type SiteType = (typeof SITE_TYPES)[number];

export interface Site extends ServerFields {
  site_name: string;
  site_type?: SiteType | null;
  city?: string | null;
  county?: string | null;
  region?: string | null;
  active?: boolean | null;
}

export interface Session extends ServerFields {
  cohort_id: string;
  session_number?: number | null;
  topic?: string | null;
  scheduled_at?: string | null;
}

/** Issue #23: how a participant came to one session (the roster's four choices, in tap order). */
export const ATTENDANCE_STATUSES = ['present', 'late', 'excused', 'absent'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];

/**
 * Issue #23: one participant at one session. The server keeps one record per (session_id,
 * participant_id) (docs/design.md S16): a second create of the pair is answered with the first.
 */
export interface Attendance extends ServerFields {
  session_id: string;
  cohort_id: string;
  participant_id: string;
  status: AttendanceStatus;
  note?: string | null;
  /** E-mail of the staff member who tapped. */
  recorded_by?: string | null;
  /** The tablet's time of the tap (ISO 8601): the later tap wins when two tablets marked the pair. */
  recorded_at?: string | null;
}

export interface Outcome extends ServerFields {
  participant_id: string;
  [field: string]: unknown;
}

export const ROLES = ['admin', 'user', 'guest'] as const;
export type Role = (typeof ROLES)[number];
export const COACH_TYPES = ['lead_coach', 'support_coach', 'case_manager', 'volunteer', 'other'] as const;
export type CoachType = (typeof COACH_TYPES)[number];

export interface User extends ServerFields {
  email: string;
  full_name?: string | null;
  phone?: string | null;
  role?: Role | string | null;
  disabled?: boolean | null;
  coach_type?: CoachType | null;
  organization?: string | null;
  years_experience?: number | null;
  linkedin_url?: string | null;
  areas_of_expertise?: string | null;
  bio?: string | null;
  certifications?: string | null;
  emergency_contact_name?: string | null;
  emergency_contact_phone?: string | null;
  requested_access_date?: string | null;
  approved?: boolean | null;
  approval_date?: string | null;
  approved_by?: string | null;
}

/** The entities the mirror holds, by their platform names. */
/** The app's entities (spec.md 3); the platform's built-in User comes on top. */
export const APP_ENTITY_NAMES = ['Participant', 'Cohort', 'Enrollment', 'Session', 'Outcome', 'Program', 'Site', 'Attendance'] as const;
export const ENTITY_NAMES = [...APP_ENTITY_NAMES, 'User'] as const;
export type EntityName = (typeof ENTITY_NAMES)[number];

export interface EntityTypes {
  Participant: Participant;
  Cohort: Cohort;
  Enrollment: Enrollment;
  Session: Session;
  Outcome: Outcome;
  Attendance: Attendance;
  Program: Program;
  Site: Site;
  User: User;
}
