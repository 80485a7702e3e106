/**
 * The server's permission table (docs/design.md "The server's rules"), in one pure function. Every route
 * asks `decide` before touching the store; nothing else grants or denies access.
 *
 * | who                         | may                                                              |
 * | anonymous                   | nothing here (sign-in routes are public)                         |
 * | unregistered                | nothing (token of another app, disabled or deleted user)        |
 * | no profile/pending/rejected | read and update their own User profile (me) and ask the status  |
 * |                             | of their own devices only (no device key: issue #21)            |
 * | coach (role user, approved) | read app entities; create/update Participant; create Cohort;     |
 * |                             | create Enrollment, update only its enrollment_status;            |
 * |                             | lead coach of the cohort: create/update/delete its Sessions;     |
 * |                             | lead or support coach of the cohort: create/update Attendance    |
 * |                             | (status, note, recorded_by, recorded_at; issue #23)              |
 * |                             | read User as id, email, full_name only; write app logs;          |
 * |                             | their device key (on a fresh sign-in: functions.ts checks that)  |
 * | admin                       | everything, except: Users are never created through entities     |
 * |                             | (register or invite), nobody changes their own protected fields  |
 * |                             | and nobody deletes their own account; list and revoke devices;   |
 * |                             | read the audit trail (AuditEvent: read-only, issue #26)          |
 */
import { accessState, type AccessFields, type AccessState } from '../../shared/access-state';
import { AUDIT_ENTITY } from '../../shared/audit';

/** The caller's User record as the permission table reads it (schemaless JSON). */
export interface UserFields extends AccessFields {
  id: string;
  email?: unknown;
  disabled?: unknown;
}

export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'unregistered' }
  | { kind: 'user'; user: UserFields };

export type Action =
  | 'read'
  | 'create'
  | 'update'
  | 'delete'
  | 'read_me'
  | 'update_me'
  /** The caller's own device key (functions/deviceKey, issues #14.2b and #21). */
  | 'device_key'
  /** Whether one of the caller's own devices was revoked (functions/deviceStatus). */
  | 'device_status'
  /** List and revoke devices and users' sessions (functions listDevices, revokeDevice, revokeUser). */
  | 'manage_devices'
  | 'write_log'
  | 'read_logs'
  | 'invite'
  /** Issue #26: report one's own CSV export to the audit trail (functions/auditExport). */
  | 'report_export';

export type Decision =
  | {
      allow: true;
      /** Only these fields may be returned. */
      visibleFields?: readonly string[];
      /** Only these fields may be filtered or sorted on (visible fields plus the record timestamps). */
      queryFields?: readonly string[];
    }
  | { allow: false; status: 401 | 403; code: string; message: string; reason?: 'auth_required' | 'user_not_registered' };

/** The entity names client and server share (shared/entities.ts). */
export { APP_ENTITY_NAMES as APP_ENTITIES, ENTITY_NAMES as ENTITIES, type EntityName } from '../../shared/entities';

/** Fields nobody may change on their own User record. */
export const SELF_PROTECTED_FIELDS = ['role', 'approved', 'approval_date', 'approved_by', 'email', 'id'] as const;
/** What a coach may see of other users (the lead-coach picker needs no more). */
export const COACH_USER_FIELDS = ['id', 'email', 'full_name'] as const;
/** Coaches may also filter and sort users by the timestamps (incremental pulls, S5); they reveal nothing personal. */
export const COACH_USER_QUERY_FIELDS = [...COACH_USER_FIELDS, 'created_date', 'updated_date'] as const;

const COACH_CREATE = new Set(['Participant', 'Cohort', 'Enrollment']);
const COACH_UPDATE: Record<string, readonly string[] | 'any'> = { Participant: 'any', Enrollment: ['enrollment_status'] };

const allow: Decision = { allow: true };
const deny = (status: 401 | 403, code: string, message: string, reason?: 'auth_required' | 'user_not_registered'): Decision => ({
  allow: false,
  status,
  code,
  message,
  reason,
});

export interface DecideOptions {
  /** The fields an update or create would write. */
  fields?: readonly string[];
  /** The target record is the caller's own User record. */
  self?: boolean;
  /**
   * Sessions and Attendance (issue #23): the caller's place in the record's cohort, looked up by
   * the route (the stored record's cohort for update and delete, the body's for create).
   */
  cohortRole?: CohortRole;
}

/** A coach's place in a cohort: its lead_coach_email, one of its support_coach_emails, or neither. */
export type CohortRole = 'lead' | 'support' | 'none';

/** What a coach may do to the records of a cohort they coach, by their role in it (issue #23). */
const COHORT_WORK: Record<string, { lead: readonly Action[]; support: readonly Action[] }> = {
  Session: { lead: ['create', 'update', 'delete'], support: [] },
  Attendance: { lead: ['create', 'update'], support: ['create', 'update'] },
};
/** Attendance fields a coach may change once the record exists (never whose or which session it is). */
export const ATTENDANCE_COACH_FIELDS = ['status', 'note', 'recorded_by', 'recorded_at'] as const;

export function decide(principal: Principal, action: Action, entity: string | null, opts: DecideOptions = {}): Decision {
  if (principal.kind === 'anonymous') return deny(401, 'AUTH_REQUIRED', 'Please sign in', 'auth_required');
  if (principal.kind === 'unregistered') {
    return deny(403, 'USER_NOT_REGISTERED', 'This account is not registered for this app', 'user_not_registered');
  }
  const state = accessState(principal.user);
  if (action === 'read_me' || action === 'update_me') return allow; // protected fields are dropped by the caller
  // A device learns it was revoked whatever became of the account's approval.
  if (action === 'device_status') return allow;
  // The server key is a second factor to the PIN: only for an account that may use the app now
  // (issue #21). A pending, rejected or revoked (guest) account's device has nothing to protect yet.
  if (action === 'device_key') {
    return state === 'admin' || state === 'coach'
      ? allow
      : deny(403, 'DEVICE_KEY_FORBIDDEN', 'Only an approved, active account can set up a PIN on this tablet.');
  }
  if (action === 'write_log') return allow;
  // Issue #26: the audit trail is read by administrators only and never written through the API.
  if (entity === AUDIT_ENTITY) return state === 'admin' && action === 'read' ? allow : deny(403, 'FORBIDDEN', 'Only administrators may read the audit trail');
  if (action === 'report_export') return state === 'admin' || state === 'coach' ? allow : notApproved(state);
  if (entity === 'User' && action === 'create') {
    return deny(403, 'FORBIDDEN', 'Users are created by registering or by invitation, not through entities');
  }
  if (state === 'admin') return decideAdmin(action, entity, opts);
  if (state === 'coach') return decideCoach(action, entity, opts);
  return notApproved(state);
}

function decideAdmin(action: Action, entity: string | null, opts: DecideOptions): Decision {
  if (entity === 'User' && opts.self) {
    if (action === 'delete') return deny(403, 'FORBIDDEN', 'You cannot delete your own account');
    const protectedField = (opts.fields ?? []).find((f) => (SELF_PROTECTED_FIELDS as readonly string[]).includes(f));
    if (action === 'update' && protectedField) {
      return deny(403, 'FORBIDDEN', `You cannot change your own ${protectedField}`);
    }
  }
  return allow;
}

function decideCoach(action: Action, entity: string | null, opts: DecideOptions): Decision {
  const onlyAdmins = deny(403, 'FORBIDDEN', 'Only administrators may do this');
  if (action === 'read') {
    return entity === 'User' ? { allow: true, visibleFields: COACH_USER_FIELDS, queryFields: COACH_USER_QUERY_FIELDS } : allow;
  }
  if (entity && Object.hasOwn(COHORT_WORK, entity) && (action === 'create' || action === 'update' || action === 'delete')) {
    return decideCohortWork(action, entity, opts);
  }
  if (action === 'create') return entity && COACH_CREATE.has(entity) ? allow : onlyAdmins;
  if (action === 'update') {
    const rule = entity && Object.hasOwn(COACH_UPDATE, entity) ? COACH_UPDATE[entity] : undefined;
    if (!rule) return onlyAdmins;
    if (rule === 'any') return allow;
    const extra = (opts.fields ?? []).find((f) => !rule.includes(f));
    return extra ? deny(403, 'FORBIDDEN', `Coaches may only change ${rule.join(', ')} on ${entity}; not ${extra}`) : allow;
  }
  return onlyAdmins; // delete, read_logs, invite, manage_devices
}

function decideCohortWork(action: Action, entity: string, opts: DecideOptions): Decision {
  const role = opts.cohortRole ?? 'none';
  const may = role === 'none' ? [] : COHORT_WORK[entity][role];
  if (!may.includes(action)) {
    const who = entity === 'Session' ? "the cohort's lead coach" : 'coaches of the cohort';
    return deny(403, 'FORBIDDEN', `Only administrators and ${who} may do this`);
  }
  if (entity === 'Attendance' && action === 'update') {
    const extra = (opts.fields ?? []).find((f) => !(ATTENDANCE_COACH_FIELDS as readonly string[]).includes(f));
    if (extra) return deny(403, 'FORBIDDEN', `Coaches may only change ${ATTENDANCE_COACH_FIELDS.join(', ')} on Attendance; not ${extra}`);
  }
  return allow;
}

function notApproved(state: AccessState): Decision {
  const message =
    state === 'no_profile'
      ? 'Please complete your coach profile to request access'
      : state === 'pending'
        ? 'Your access request is waiting for approval'
        : 'Your access request was not approved';
  return deny(403, 'NOT_APPROVED', message);
}
