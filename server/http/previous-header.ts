import type { UpdatedRecord } from '../store/types';

/**
 * Issue #9.10, an optional extension of the platform's update answer: `X-Passage-Previous` tells
 * the client what its PUT overwrote — per record, the `updated_date` it had just before and the
 * previous values of the fields the request set. Two devices that fetch-then-PUT the same field
 * within one round trip otherwise lose an edit with no trace; with this, the later writer sees
 * that the value it replaced was not the one it based its edit on and records a conflict.
 *
 * The body stays exactly the platform's (the official SDK reads only the body and ignores the
 * header). Value: URI-encoded JSON (headers are Latin-1), an array of
 * `{ id, updated_date, values: { field: previous value or null } }` in request order. Left out when
 * it would be larger than MAX_PREVIOUS_HEADER_CHARS (a bulk PUT of long texts): clients work
 * without it, as against the platform itself.
 */
export const PREVIOUS_HEADER = 'X-Passage-Previous';
export const MAX_PREVIOUS_HEADER_CHARS = 32 * 1024;

export interface PreviousEntry {
  id: string;
  updated_date: string | null;
  values: Record<string, unknown>;
}

export function previousHeader(updates: Array<{ patch: Record<string, unknown>; updated: UpdatedRecord }>): string | null {
  const entries: PreviousEntry[] = updates.map(({ patch, updated }) => {
    const values: Record<string, unknown> = {};
    for (const field of Object.keys(patch)) if (field !== 'id') values[field] = Object.hasOwn(updated.previous, field) ? (updated.previous[field] ?? null) : null;
    return { id: updated.record.id, updated_date: (updated.previous.updated_date as string | undefined) ?? null, values };
  });
  const value = encodeURIComponent(JSON.stringify(entries));
  return value.length <= MAX_PREVIOUS_HEADER_CHARS ? value : null;
}
