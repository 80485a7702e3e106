/**
 * S4 per-field merge of a queued update with the server's current record. Pure.
 * - Server unchanged since the base: send every changed field.
 * - A field only this device changed: send it. A field only the server changed is not in the op,
 *   so the partial PUT leaves it alone.
 * - A field both changed to the same value: nothing to send, no conflict.
 * - A field both changed differently: local wins (sent) and a conflict is reported. A server value
 *   this device itself sent in an attempt whose answer was lost (`sent_values`) is not another's
 *   change: the coach who edits the field again before the retry meets no conflict with themselves.
 */
import { sameValue } from './same-value';

/** What the merge needs of a queued update op. */
export interface UpdateOpLike {
  data: Record<string, unknown>;
  base_values?: Record<string, unknown>;
  base_updated_date?: string | null;
  sent_values?: Record<string, unknown[]>;
}

export interface FieldMergeResult {
  send: Record<string, unknown>;
  conflicts: Record<string, { local: unknown; server: unknown }>;
  /** The server values now known for the op's fields: the base for the next attempt. */
  newBase: Record<string, unknown>;
}

export function fieldMerge(op: UpdateOpLike, server: Record<string, unknown>): FieldMergeResult {
  const send: Record<string, unknown> = {};
  const conflicts: FieldMergeResult['conflicts'] = {};
  const newBase: Record<string, unknown> = {};
  const unmoved = op.base_updated_date != null && server.updated_date === op.base_updated_date;
  for (const [field, local] of Object.entries(op.data)) {
    const current = server[field];
    newBase[field] = current ?? null;
    if (unmoved) {
      send[field] = local;
      continue;
    }
    const base = op.base_values?.[field];
    if (sameValue(current, local)) continue;
    send[field] = local;
    const own = (op.sent_values?.[field] ?? []).some((v) => sameValue(current, v));
    if (!own && !sameValue(current, base)) conflicts[field] = { local, server: current ?? null };
  }
  return { send, conflicts, newBase };
}

/** `sent_values` once `send` has gone out too (each value once per field). */
export function withSent(sent: Record<string, unknown[]> | undefined, send: Record<string, unknown>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = { ...sent };
  for (const [field, value] of Object.entries(send)) {
    const values = out[field] ?? [];
    out[field] = values.some((v) => sameValue(v, value)) ? values : [...values, value];
  }
  return out;
}
