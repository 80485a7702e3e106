import type { PageName } from './paths';

/**
 * What the tab remembers of each list page's search (issue #12.8, #21.6), apart from the hook that
 * keeps it (list-search.ts): the lock forgets it from the entry's code, which must not pull the
 * router into the first page's JavaScript (issue #24.5: `useListSearch` needs TanStack Router, about
 * 15 KB gzipped, which a start that opens on "Set a PIN" or "Passage is locked" does not need).
 */

/** Search text: kept in memory, never written to the address. */
export const MEMORY_ONLY: ReadonlySet<string> = new Set(['q']);

/** The last search of each list page in this tab, so a back link can return to it. */
const remembered = new Map<PageName, Record<string, string>>();

export function rememberSearch(page: PageName, search: Record<string, string>): void {
  remembered.set(page, search);
}

/** The last search of a list page in this tab, search text included (the page's own start). */
export function lastSearch(page: PageName): Record<string, string> {
  return remembered.get(page) ?? {};
}

/** What a back link puts in the URL: the remembered filters, without the memory-only search text. */
export function rememberedSearch(page: PageName): Record<string, string> {
  return Object.fromEntries(Object.entries(lastSearch(page)).filter(([k]) => !MEMORY_ONLY.has(k)));
}

/** Forget every list's search (a lock: a name typed there must not wait in memory behind the PIN). */
export function forgetListSearches(): void {
  remembered.clear();
}
