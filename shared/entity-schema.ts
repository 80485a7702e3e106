/**
 * The known fields of spec.md section 3 and their types. Unknown fields are kept as sent (records
 * are schemaless); known ones are type-checked on create and update. Every field may be null
 * unless listed in REQUIRED_ON_CREATE.
 */
import { UID_FIELD } from './config';
import {
  ATTENDANCE_STATUSES,
  COACH_TYPES,
  COHORT_STATUSES,
  CUSTODY_STATUSES,
  ENROLLMENT_STATUSES,
  GENDERS,
  PROGRAM_STATUSES,
  ROLES,
  SITE_TYPES,
  type EntityName,
} from './entities';

export type FieldType =
  | { kind: 'string' }
  | { kind: 'integer' }
  | { kind: 'boolean' }
  | { kind: 'date' } // YYYY-MM-DD or a full ISO 8601 date-time
  | { kind: 'datetime' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'strings' }
  | { kind: 'url' };

const string = { kind: 'string' } as const;
const integer = { kind: 'integer' } as const;
const boolean = { kind: 'boolean' } as const;
const date = { kind: 'date' } as const;
const datetime = { kind: 'datetime' } as const;
const strings = { kind: 'strings' } as const;
const url = { kind: 'url' } as const;
const oneOf = (...values: readonly string[]) => ({ kind: 'enum', values }) as const;

const texts = (...names: string[]) => Object.fromEntries(names.map((n) => [n, string]));

export const ENTITY_FIELDS: Record<EntityName, Record<string, FieldType>> = {
  Participant: {
    ...texts(UID_FIELD, 'first_name', 'last_name', 'middle_name', 'phone', 'email', 'address', 'cdcr_number'),
    ...texts('case_manager', 'address_on_release', 'emergency_contact_name', 'emergency_contact_phone'),
    ...texts('emergency_contact_relationship', 'client_ref'),
    date_of_birth: date,
    age: integer,
    gender: oneOf(...GENDERS),
    custody_status: oneOf(...CUSTODY_STATUSES),
    projected_release_date: date,
    actual_release_date: date,
    consent_signed: boolean,
    consent_date: date,
    program_status: oneOf(...PROGRAM_STATUSES),
    enrollment_date: date,
    different_person_from: strings,
  },
  Enrollment: {
    ...texts('participant_id', 'cohort_id', 'client_ref'),
    intake_date: date,
    enrollment_status: oneOf(...ENROLLMENT_STATUSES),
  },
  Cohort: {
    ...texts('program_id', 'site_id', 'cohort_code', 'schedule_notes', 'lead_coach_email', 'client_ref'),
    start_date: date,
    end_date: date,
    capacity: integer,
    status: oneOf(...COHORT_STATUSES),
    support_coach_emails: strings,
  },
  Program: { ...texts('program_name', 'description', 'client_ref'), active: boolean },
  Site: {
    ...texts('site_name', 'city', 'county', 'region', 'client_ref'),
    site_type: oneOf(...SITE_TYPES),
    active: boolean,
  },
  Session: { ...texts('cohort_id', 'topic', 'client_ref'), session_number: integer, scheduled_at: datetime },
  Outcome: { ...texts('participant_id', 'client_ref') },
  Attendance: {
    ...texts('session_id', 'cohort_id', 'participant_id', 'note', 'recorded_by', 'client_ref'),
    status: oneOf(...ATTENDANCE_STATUSES),
    recorded_at: datetime,
  },
  User: {
    ...texts('full_name', 'email', 'phone', 'organization', 'areas_of_expertise', 'bio', 'certifications'),
    ...texts('emergency_contact_name', 'emergency_contact_phone', 'approved_by'),
    role: oneOf(...ROLES),
    coach_type: oneOf(...COACH_TYPES),
    years_experience: integer,
    linkedin_url: url,
    requested_access_date: date,
    approved: boolean,
    approval_date: date,
    disabled: boolean,
  },
};

/** Must be present and non-empty on create, and may not be cleared later. */
export const REQUIRED_FIELDS: Record<string, readonly string[]> = {
  Participant: ['first_name', 'last_name'],
  Session: ['cohort_id'],
  Attendance: ['session_id', 'cohort_id', 'participant_id', 'status'],
};

/**
 * Issue #23 (docs/design.md S16): fields that together name at most one record. The database
 * enforces it (a unique index); a create of a pair already taken is answered with the stored record,
 * and a tablet's engine turns its own values into an update of that record (later tap wins).
 */
export const NATURAL_KEYS: Partial<Record<EntityName, readonly string[]>> = {
  Attendance: ['session_id', 'participant_id'],
};

/** Kept by the server; a client's value for them is ignored on create and update. */
export const SERVER_FIELDS = ['id', 'created_date', 'updated_date', 'created_by', 'created_by_id'] as const;
/** User fields only the sign-in machinery sets. */
export const USER_SERVER_FIELDS = ['is_verified', 'app_id', 'is_service', '_app_role'] as const;
