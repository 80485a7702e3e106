/**
 * Issue #9.10: Passage's server may answer an update with `X-Passage-Previous` (server/http/
 * previous-header.ts): per record, the `updated_date` it had just before and the previous values of
 * the fields the request set. The client attaches each entry to its record in the answer under a
 * registered symbol — not enumerable, so it is never spread, serialised or stored — where the sync
 * engine looks for it (data/sync/types.ts `previousOf`). A platform without the header changes
 * nothing: the records come back exactly as the body has them.
 */
export const PREVIOUS_HEADER = 'X-Passage-Previous';
export const PREVIOUS_VALUES = Symbol.for('passage.previous-values');

export interface PreviousValues {
  updated_date: string | null;
  values: Record<string, unknown>;
}

export function attachPrevious(data: unknown, header: string | null): void {
  if (!header || !data || typeof data !== 'object') return;
  let entries: unknown;
  try {
    entries = JSON.parse(decodeURIComponent(header));
  } catch {
    return; // a mangled header is as good as none
  }
  if (!Array.isArray(entries)) return;
  const byId = new Map<string, PreviousValues>();
  for (const e of entries as Array<Record<string, unknown>>) {
    if (!e || typeof e.id !== 'string' || !e.values || typeof e.values !== 'object') continue;
    byId.set(e.id, { updated_date: typeof e.updated_date === 'string' ? e.updated_date : null, values: e.values as Record<string, unknown> });
  }
  for (const row of Array.isArray(data) ? data : [data]) {
    const previous = row && typeof row === 'object' ? byId.get((row as { id?: unknown }).id as string) : undefined;
    if (previous) Object.defineProperty(row, PREVIOUS_VALUES, { value: previous, enumerable: false, configurable: true });
  }
}
