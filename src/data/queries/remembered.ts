import { useLiveQuery } from 'dexie-react-hooks';

/**
 * The last answer of each whole-table list query, kept in memory for this tab. A page opened again
 * (Participants after a detail page) renders that answer at once while its live query re-reads
 * IndexedDB — 10,000 participants take several hundred ms to read on a low-end tablet — and then
 * shows the fresh answer. Cleared with the local data (logout on a shared tablet, S11).
 */
const remembered = new Map<string, unknown>();

export function useRememberedLiveQuery<T>(key: string, querier: () => Promise<T>): T | undefined {
  const result = useLiveQuery(querier, [], remembered.get(key) as T | undefined);
  if (result !== undefined) remembered.set(key, result);
  return result;
}

export function forgetRememberedQueries(): void {
  remembered.clear();
}
