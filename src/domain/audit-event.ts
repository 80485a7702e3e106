/**
 * Issue #26: how the audit trail reads to an administrator. Pure: the filter → query rule, the
 * words for each action, when an edit counts as made offline, and an event's changed fields.
 */
import { humanize, todayISO } from './format';
import type { AuditAction } from '../../shared/audit';

/** The filters of the Audit page (each '' when unset; dates are local YYYY-MM-DD). */
export interface AuditFilters {
  actor: string;
  entity: string;
  record: string;
  action: string;
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { actor: '', entity: '', record: '', action: '', from: '', to: '' };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Local midnight of a YYYY-MM-DD, as the server's UTC instant; `days` later when asked. */
function localMidnight(date: string, days = 0): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y, m - 1, d + days).toISOString();
}

/**
 * The entity API's filter (platform-contract 2.1) for these filters: exact matches (each field is
 * indexed on the server) on the actor's e-mail, the entity, the record id and the action; the dates
 * as the local days they name, both ends included (`created_date` from the first day's midnight to
 * before the midnight after the last). Accounts keep their e-mail in lower case, a failed sign-in
 * the address as typed: 'Ana@X.org' asks for both spellings.
 */
export function auditQuery(filters: Partial<AuditFilters>): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  const actor = filters.actor?.trim();
  if (actor) q.actor_email = actor === actor.toLowerCase() ? actor : { $in: [actor.toLowerCase(), actor] };
  if (filters.entity) q.entity = filters.entity;
  const record = filters.record?.trim();
  if (record) q.record_id = record;
  if (filters.action) q.action = filters.action;
  const range: Record<string, string> = {};
  if (filters.from && DATE.test(filters.from)) range.$gte = localMidnight(filters.from);
  if (filters.to && DATE.test(filters.to)) range.$lt = localMidnight(filters.to, 1);
  if (Object.keys(range).length > 0) q.created_date = range;
  return q;
}

/** The filters a person set, without the empty ones (an export notice's `filters`). */
export function setFilters(filters: AuditFilters): Partial<AuditFilters> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v.trim() !== '')) as Partial<AuditFilters>;
}

/** Our words for each action of the audit (the server's names are not for people): one for every action. */
export const AUDIT_ACTION_LABEL: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  enroll: 'Enrolled',
  unenroll: 'Unenrolled',
  resolve_conflict: 'Resolved a conflict',
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  lockout: 'Locked out',
  password_change: 'Changed password',
  password_reset: 'Reset password',
  sign_up: 'Signed up',
  approve: 'Approved',
  reject: 'Rejected',
  role_change: 'Changed role',
  device_key_release: 'Tablet key released',
  device_revoke: 'Tablet revoked',
  device_erase: 'Tablet erased',
  export: 'Exported CSV',
};

export function actionLabel(action: string): string {
  return (AUDIT_ACTION_LABEL as Record<string, string>)[action] ?? humanize(action);
}

/**
 * An edit that reached the server a minute or more after it was made on the tablet was queued
 * (offline, or waiting for the next sync): its row then says both times. Under a minute is the
 * ordinary delay of an online sync (the engine sends about 1 s after a write).
 */
export const QUEUED_AFTER_MS = 60_000;

export function arrivedLater(event: { created_date: string; client_time: string | null }): boolean {
  if (!event.client_time) return false;
  const made = Date.parse(event.client_time);
  const arrived = Date.parse(event.created_date);
  return Number.isFinite(made) && Number.isFinite(arrived) && arrived - made >= QUEUED_AFTER_MS;
}

export interface ChangedField {
  field: string;
  /** Absent for a field whose event gives only one value (a create's or delete's, an export's). */
  old?: unknown;
  new?: unknown;
  kind: 'change' | 'value';
}

function isOldNew(value: unknown): value is { old: unknown; new: unknown } {
  return !!value && typeof value === 'object' && !Array.isArray(value) && 'old' in value && 'new' in value;
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/**
 * The fields an event names, in the order the server gave them: old → new for a change; for a
 * record made (`create`) or deleted (`delete`) the values it had, without the empty ones — 'empty →
 * empty' twenty times says nothing. An enrolment is either (a new enrollment, or a status change):
 * read from its values. Other events' details as they are.
 */
export function changedFields(changes: unknown, action?: string): ChangedField[] {
  if (!changes || typeof changes !== 'object' || Array.isArray(changes)) return [];
  const entries = Object.entries(changes as Record<string, unknown>);
  const pairs = entries.filter(([, v]) => isOldNew(v)) as Array<[string, { old: unknown; new: unknown }]>;
  const either = action === 'enroll' || action === 'unenroll';
  if (pairs.length === entries.length && pairs.length > 0 && (action === 'create' || action === 'delete' || either)) {
    const made = action === 'create' || (either && pairs.every(([, v]) => isEmpty(v.old)));
    const gone = action === 'delete' || (either && !made && pairs.every(([, v]) => isEmpty(v.new)));
    if (made || gone) {
      return pairs.flatMap(([field, v]) => {
        const value = made ? v.new : v.old;
        return isEmpty(value) ? [] : [{ field, new: value, kind: 'value' as const }];
      });
    }
  }
  return entries.map(([field, value]) =>
    isOldNew(value) ? { field, old: value.old, new: value.new, kind: 'change' } : { field, new: value, kind: 'value' },
  );
}

/** Words read as letters: 'academy_uid' → 'Academy UID'. */
const LETTERS = new Set(['id', 'uid', 'cdcr', 'ip', 'url']);

/** A field name for people: 'custody_status' → 'Custody status', 'cdcr_number' → 'CDCR number'. */
export function fieldLabel(field: string): string {
  const words = humanize(field)
    .trim()
    .split(/\s+/)
    .map((w) => (LETTERS.has(w.toLowerCase()) ? w.toUpperCase() : w));
  const text = words.join(' ');
  return text ? text[0].toUpperCase() + text.slice(1) : field;
}

/** A value for people: empty for null/'' (the screen says 'empty'), JSON for objects and lists. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** 'Jan 5, 2026, 2:30:15 PM' in local time: an audit needs the year and the second. */
export function formatAuditTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const h = d.getHours();
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}, ${h % 12 || 12}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** `audit-{yyyy-MM-dd}.csv`, the Audit page's export. */
export function auditFileName(today: Date): string {
  return `audit-${todayISO(today)}.csv`;
}
