/**
 * S1: successive edits of one record before it is pushed become one op. Pure: given the record's
 * last queued op and a new change, say what the outbox should hold. Only a 'pending' op merges;
 * an op in flight may already be on the server (so may a pending create whose answer was lost),
 * and a rejected one waits for a person's choice.
 */
import type { OutboxOp } from '../db';
import { unreachable } from '../../domain/unreachable';

export type Change =
  | { kind: 'create'; data: Record<string, unknown> }
  | { kind: 'update'; data: Record<string, unknown>; base_values: Record<string, unknown>; base_updated_date: string | null }
  | { kind: 'delete'; snapshot: Record<string, unknown> | null };

export type MergeResult =
  /** Append the change as a new op. */
  | { action: 'append' }
  /** Replace the last op (same seq) with this one. */
  | { action: 'replace'; op: OutboxOp }
  /** Remove the last op and queue nothing: the server never needs to hear of the record. */
  | { action: 'drop' };

export function mergeChange(last: OutboxOp | undefined, change: Change): MergeResult {
  if (!last || last.state !== 'pending') return { action: 'append' };
  // A create whose answer was lost may be on the server already: the look-up adopts the server's
  // row and drops the op, so an edit folded into its body would be lost (and a delete dropped with
  // it would leave the record on the server). Queued after it, they go out once it is resolved.
  if (last.kind === 'create' && last.outcome_unknown) return { action: 'append' };
  switch (last.kind) {
    case 'create':
      if (change.kind === 'update') return { action: 'replace', op: { ...last, data: { ...last.data, ...change.data } } };
      if (change.kind === 'delete') return { action: 'drop' };
      return { action: 'append' };
    case 'update':
      if (change.kind === 'update') {
        // The first edit's base stays: it is what the server had when this device diverged.
        const base_values = { ...change.base_values, ...last.base_values };
        // One base date for the op only while every field's base is of that server version. An
        // attempt whose answer never came moves the op's date to the version it fetched, which the
        // mirror has not seen: a field added now has an older base, and "the server has not moved
        // since the base" would send it over another device's change without a conflict (S4).
        const base_updated_date = sameDate(last.base_updated_date, change.base_updated_date) ? last.base_updated_date : null;
        return { action: 'replace', op: { ...last, data: { ...last.data, ...change.data }, base_values, base_updated_date } };
      }
      if (change.kind === 'delete') {
        // The snapshot goes back to the server's values: discarding the delete must not leave
        // unsynced edits in the mirror with no op to carry them.
        const snapshot = change.snapshot ? { ...change.snapshot, ...last.base_values } : null;
        return {
          action: 'replace',
          op: { ...last, kind: 'delete', data: {}, base_values: undefined, snapshot },
        };
      }
      return { action: 'append' };
    case 'delete':
      // Commands refuse to touch a deleted row, so nothing can follow a queued delete.
      return { action: 'append' };
    default:
      return unreachable(last.kind, 'op kind');
  }
}

function sameDate(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a ?? null) === (b ?? null);
}
