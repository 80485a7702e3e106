/**
 * S16 (docs/design.md): records with a natural key and a tap time (an attendance: one per session
 * and participant, `recorded_at` the tablet's time of the tap). Two tablets that marked the same
 * pair offline each made their own record; the server keeps the first to arrive and answers the
 * second create with it. Whoever arrives, the later tap wins and the other is kept as a conflict a
 * person can review. Pure: the engine only applies what these return.
 */
import type { EntityName } from '../../../shared/entities';
import { NATURAL_KEYS } from '../../../shared/entity-schema';
import type { FieldMergeResult } from './field-merge';
import { sameValue } from './same-value';

/** The field that says when a record's value was chosen on a device. */
export const TAP_TIME_FIELD: Partial<Record<EntityName, string>> = { Attendance: 'recorded_at' };
/** Bookkeeping of a tap: it moves with the winner but is never a conflict by itself. */
const TAP_FIELDS: Partial<Record<EntityName, readonly string[]>> = { Attendance: ['recorded_at', 'recorded_by'] };

export const hasNaturalKey = (entity: EntityName) => NATURAL_KEYS[entity] !== undefined;

function tapTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/** True when the server's value was chosen after this device's (an unknown time counts as older). */
export function serverTapIsLater(entity: EntityName, local: Record<string, unknown>, server: Record<string, unknown>): boolean {
  const field = TAP_TIME_FIELD[entity];
  if (!field) return false;
  const theirs = tapTime(server[field]);
  const mine = tapTime(local[field]);
  return theirs !== null && (mine === null || theirs > mine);
}

/** Fields of `local` whose value the server holds differently (keys, client_ref and platform fields left out). */
function differing(entity: EntityName, local: Record<string, unknown>, server: Record<string, unknown>): string[] {
  const fixed = new Set(['client_ref', 'id', 'created_date', 'updated_date', 'created_by', 'created_by_id', ...(NATURAL_KEYS[entity] ?? [])]);
  return Object.keys(local).filter((f) => !fixed.has(f) && !sameValue(local[f] ?? null, server[f] ?? null));
}

export interface TapOutcome {
  /** What this device must still send (empty when the server's tap is later). */
  send: Record<string, unknown>;
  /** Fields both chose differently: the losing value is kept for review (local and server values). */
  conflicts: Record<string, { local: unknown; server: unknown }>;
}

/** Settle this device's values against the record the server holds for the same natural key. */
export function settleTap(entity: EntityName, local: Record<string, unknown>, server: Record<string, unknown>): TapOutcome {
  const fields = differing(entity, local, server);
  const bookkeeping = new Set(TAP_FIELDS[entity] ?? []);
  const conflicts: TapOutcome['conflicts'] = {};
  for (const f of fields) if (!bookkeeping.has(f)) conflicts[f] = { local: local[f] ?? null, server: server[f] ?? null };
  if (serverTapIsLater(entity, local, server)) return { send: {}, conflicts };
  return { send: Object.fromEntries(fields.map((f) => [f, local[f] ?? null])), conflicts };
}

/**
 * S4 for a tap-timed entity whose server copy was tapped later than this device's queued update:
 * nothing is sent, and each field the update wanted differently is a conflict. Null when the
 * ordinary per-field merge applies (no tap time, or this device's tap is the later one).
 */
export function laterServerTap(entity: EntityName, op: { data: Record<string, unknown> }, server: Record<string, unknown>): FieldMergeResult | null {
  // An edit that is no tap (it sets no tap time: a note corrected later) follows S4 as it is.
  const field = TAP_TIME_FIELD[entity];
  if (!field || tapTime(op.data[field]) === null || !serverTapIsLater(entity, op.data, server)) return null;
  const { conflicts } = settleTap(entity, op.data, server);
  const newBase = Object.fromEntries(Object.keys(op.data).map((f) => [f, server[f] ?? null]));
  return { send: {}, conflicts, newBase };
}
