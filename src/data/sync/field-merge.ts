/**
 * S4 per-field merge of a queued update with the server's current record. Pure.
 * - Server unchanged since the base: send every changed field.
 * - A field only this device changed: send it. A field only the server changed is not in the op,
 *   so the partial PUT leaves it alone.
 * - A field both changed to the same value: nothing to send, no conflict.
 * - A field both changed differently: local wins (sent) and a conflict is reported.
 */
import { sameValue } from './same-value';

/** What the merge needs of a queued update op. */
export interface UpdateOpLike {
  data: Record<string, unknown>;
  base_values?: Record<string, unknown>;
  base_updated_date?: string | null;
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
    if (!sameValue(current, base)) conflicts[field] = { local, server: current ?? null };
  }
  return { send, conflicts, newBase };
}
