import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';

/**
 * The last answer of each whole-table list query, kept in memory for this tab. A page opened again
 * (Participants after a detail page) renders that answer at once while its live query re-reads
 * IndexedDB — 10,000 participants take several hundred ms to read on a low-end tablet — and then
 * shows the fresh answer. Cleared with the local data (logout on a shared tablet, S11).
 *
 * With a remembered answer, the re-read starts once that answer is on screen (after the next
 * frame): started at once, its results (hundreds of ms of IndexedDB callbacks on a tablet 4×
 * slower) arrived before the first frame and held the page back. A change made meanwhile is in
 * what the re-read finds.
 */
const remembered = new Map<string, unknown>();

/** After the next frame is painted; a hidden tab (no frames) goes on after FALLBACK_MS. */
const FALLBACK_MS = 250;
function afterNextFrame(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    fn();
  };
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => (timer = setTimeout(run, 0))) : undefined;
  const fallback = setTimeout(run, FALLBACK_MS);
  return () => {
    done = true;
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
    clearTimeout(fallback);
  };
}

export function useRememberedLiveQuery<T>(key: string, querier: () => Promise<T>): T | undefined {
  const [live, setLive] = useState(() => !remembered.has(key));
  useEffect(() => (live ? undefined : afterNextFrame(() => setLive(true))), [live]);
  const result = useLiveQuery(live ? querier : async () => remembered.get(key) as T, [live], remembered.get(key) as T | undefined);
  if (live && result !== undefined) remembered.set(key, result);
  return result;
}

export function forgetRememberedQueries(): void {
  remembered.clear();
}
