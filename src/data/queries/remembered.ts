/**
 * The last answer of each whole-table list query, kept in memory for this tab. A page opened again
 * (Participants after a detail page) renders that answer at once and shows a fresh one when its
 * tables changed. Cleared with the local data (logout on a shared tablet, S11) and at Lock.
 *
 * With a remembered answer, the live query starts once that answer is on screen (after the next
 * frame). Its first run does not read the rows again when nothing was written to the query's tables
 * since the answer was read: it counts each table (which subscribes the query to every change of
 * it) and keeps the answer. Re-reading 10,000 participants took hundreds of ms of IndexedDB
 * callbacks on a tablet 4× slower, landing on the coach's first keystrokes in the search box.
 * Every later run — a table changed — reads the rows.
 */
import { useEffect, useMemo, useState } from 'react';
import Dexie, { type Table } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';

/** One remembered answer. */
interface Remembered {
  value: unknown;
  /** The tables read ("database/table"), and their write generations taken before the read that gave `value`. */
  tables: string;
  generations: readonly number[];
}
const remembered = new Map<string, Remembered>();

/**
 * Writes seen per table ("database/table"), from Dexie's storagemutated event: fired after each
 * committed write of this tab and, through Dexie's BroadcastChannel, of the app's other tabs.
 * Subscribed when this module loads, before any live query, so a write's count has gone up before
 * any live query reacts to it.
 */
const writes = new Map<string, number>();
Dexie.on('storagemutated', (parts: Record<string, unknown>) => {
  const seen = new Set<string>();
  for (const part of Object.keys(parts)) {
    const m = /^idb:\/\/(.*)\/([^/]*)\/[^/]*$/.exec(part);
    if (m) seen.add(`${m[1]}/${m[2]}`);
  }
  for (const t of seen) writes.set(t, (writes.get(t) ?? 0) + 1);
});
const tableIds = (tables: readonly Table[]) => tables.map((t) => `${t.db.name}/${t.name}`);
const generationsOf = (ids: readonly string[]) => ids.map((id) => writes.get(id) ?? 0);
const sameGenerations = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((g, i) => g === b[i]);

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

/**
 * The live query's querier: its first run keeps the remembered answer when none of `tables` was
 * written since it was read (counting them subscribes it to their changes); every run after
 * that, and a first run after a write, reads.
 */
function liveReader<T>(key: string, tables: readonly Table[], querier: () => Promise<T>): () => Promise<T> {
  let first = true;
  const ids = tableIds(tables);
  const read = ids.join('|');
  return async () => {
    const kept = remembered.get(key);
    const generations = generationsOf(ids);
    if (first) {
      first = false;
      // Another database (another user's, a test's) never lends its answer.
      if (kept && kept.tables === read && sameGenerations(kept.generations, generations)) {
        await Promise.all(tables.map((t) => t.count()));
        return kept.value as T;
      }
    }
    const value = await querier();
    remembered.set(key, { value, tables: read, generations });
    return value;
  };
}

/**
 * `querier` reads whole `tables` (every table it reads must be listed: a write to an unlisted one
 * would not refresh a remembered answer).
 */
export function useRememberedLiveQuery<T>(key: string, tables: readonly Table[], querier: () => Promise<T>): T | undefined {
  const [live, setLive] = useState(() => !remembered.has(key));
  useEffect(() => (live ? undefined : afterNextFrame(() => setLive(true))), [live]);
  // The live query is made once per phase; `tables` and `querier` are read then.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useMemo(() => (live ? liveReader(key, tables, querier) : async () => remembered.get(key)?.value as T), [live, key]);
  return useLiveQuery(run, [run], remembered.get(key)?.value as T | undefined);
}

export function forgetRememberedQueries(): void {
  remembered.clear();
}
