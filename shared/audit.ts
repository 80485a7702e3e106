/**
 * Issue #26: the audit trail as client and server share it. The tablet reads `AuditEvent` online
 * only (an administrator's Audit page and History sections): it is no entity of the mirror
 * (shared/entities.ts ENTITY_NAMES), and the sync engine never pulls it.
 */

/** The read-only entity of the entity API (administrators only). */
export const AUDIT_ENTITY = 'AuditEvent';

export const AUDIT_ACTIONS = [
  'create', 'update', 'delete', 'enroll', 'unenroll', 'resolve_conflict',
  'sign_in', 'sign_in_failed', 'lockout', 'password_change', 'password_reset', 'sign_up',
  'approve', 'reject', 'role_change', 'device_key_release', 'device_revoke', 'device_erase', 'export',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEvent {
  /** The event's seq in 24 hex digits: id order is chain order. */
  id: string;
  /** The server's time of the event (ISO 8601 UTC); never earlier than the event before it. */
  created_date: string;
  /** = created_date (events never change). */
  updated_date: string;
  /** 1, 2, 3… per app, no gaps. */
  seq: number;
  actor_id: string | null;
  /** 'system' for writes made without a request (seeding, migrations). */
  actor_email: string | null;
  device_id: string | null;
  /** The tablet's edit time of a queued change (X-Passage-Edit-Times), else null. */
  client_time: string | null;
  entity: string | null;
  record_id: string | null;
  action: AuditAction | string;
  outcome: 'success' | 'failure';
  /**
   * Record writes: {field: {old, new}} — for a create every field (old null), for an update the
   * changed fields, for a delete every field the record had (new null). Other events: null or a
   * small object (an export's kind, row_count, filters).
   */
  changes: Record<string, { old: unknown; new: unknown }> | Record<string, unknown> | null;
  reason: string | null;
  /** The client's address as the sign-in lockout takes it. */
  address: string | null;
  /** sha256 of prev_hash and this event, hex. */
  hash: string;
  prev_hash: string;
}

/** Optional tablet headers on entity writes (the official SDK omits them). */
export const EDIT_TIMES_HEADER = 'X-Passage-Edit-Times';
export const RESOLVES_CONFLICT_HEADER = 'X-Passage-Resolves-Conflict';
/** At most this many edit times are read (a bulk request holds at most 500 records). */
export const MAX_EDIT_TIMES = 500;

/** The header's value for these edit times (one per record of the body, null when unknown). */
export function encodeEditTimes(times: readonly (string | null)[]): string {
  return encodeURIComponent(JSON.stringify(times));
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The header's edit times, each an ISO date-time normalised to UTC milliseconds or null; undefined
 * when the header is absent or malformed (then ignored: a write never fails over it).
 */
export function decodeEditTimes(header: string | undefined | null): (string | null)[] | undefined {
  if (!header || header.length > 64 * MAX_EDIT_TIMES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(decodeURIComponent(header));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length > MAX_EDIT_TIMES) return undefined;
  return value.map((t) => {
    if (typeof t !== 'string' || !ISO_DATE_TIME.test(t)) return null;
    const ms = Date.parse(t);
    return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  });
}
