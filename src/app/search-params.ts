/**
 * Query strings as plain strings. TanStack Router's default parser JSON-parses values, which would
 * turn `?id=123` into the number 123 and `?id=1e5` into 100000 — an id must come back exactly as
 * it was written.
 */
export function parseSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search.startsWith('?') ? search.slice(1) : search));
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The `id` of a detail page's URL ('' when missing, so the page shows its not-found state). */
export function idSearch(search: Record<string, unknown>): { id: string } {
  return { id: typeof search.id === 'string' ? search.id : '' };
}
