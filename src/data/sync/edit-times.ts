/**
 * Issue #26: the time each queued change was made on the device, for the server's audit. Pure.
 * The time comes from the op (S14: never the clock at send time): an edit made offline in the
 * morning and sent in the afternoon carries the morning. A merged op (S1) carries its latest edit.
 */
import type { OutboxOp } from '../db';
import type { WriteMeta } from './types';
import { EDIT_TIMES_HEADER, encodeEditTimes, RESOLVES_CONFLICT_HEADER } from '../../../shared/audit';

export { EDIT_TIMES_HEADER, RESOLVES_CONFLICT_HEADER };

/** When the op's change was made, ISO; ops from before issue #26 fall back to when they were queued. */
export function editTimeOf(op: Pick<OutboxOp, 'edited_at' | 'created_at'>): string | null {
  const ms = op.edited_at ?? op.created_at;
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The meta of one request carrying these ops' records, in the body's order. */
export function writeMetaOf(ops: ReadonlyArray<Pick<OutboxOp, 'edited_at' | 'created_at' | 'resolves_conflict'>>): WriteMeta {
  const meta: WriteMeta = { editTimes: ops.map(editTimeOf) };
  if (ops.some((op) => op.resolves_conflict)) meta.resolvesConflict = true;
  return meta;
}

/** The headers a platform request carries for `meta` (none without it). */
export function writeHeaders(meta: WriteMeta | undefined): Record<string, string> {
  if (!meta) return {};
  const headers: Record<string, string> = { [EDIT_TIMES_HEADER]: encodeEditTimes(meta.editTimes) };
  if (meta.resolvesConflict) headers[RESOLVES_CONFLICT_HEADER] = '1';
  return headers;
}
