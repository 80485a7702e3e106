/**
 * Issue #22.2: the screens' side of beyond-scope.ts — whether the tablet holds only some sites and
 * can ask the server, the debounced search of other sites, and opening a participant from beyond
 * the scope on its detail page.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { DataContext } from '../context';
import { useDataContext } from '../provider';
import { OfflineError } from '../errors';
import { useSyncStatus } from '../queries/sync-status';
import { readTabletScope } from '../queries/scope';
import type { Participant } from '../../../shared/entities';
import {
  BEYOND_SEARCH_DEBOUNCE_MS,
  BEYOND_SEARCH_LIMIT,
  browserOffline,
  keepOnTablet,
  participantSearchFilter,
  searchParticipantsBeyond,
  type BeyondSearchOptions,
} from './beyond-scope';

/**
 * Whether this tablet holds only some sites for the signed-in user (meta 'tabletScope', written
 * by the engine): then participants of other sites exist beyond it. undefined while reading; false
 * when it holds every site or no scope was derived for this user yet (the tablet then holds what
 * it always held, and nothing is searched online).
 */
export async function readScopeIsPartial(ctx: DataContext): Promise<boolean> {
  const scope = await readTabletScope(ctx);
  return !!scope && !scope.all;
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Beyond-scope facts a screen needs: whether the tablet holds only some sites, and whether the server can be asked. */
export interface BeyondScope {
  /** undefined while reading. */
  partial: boolean | undefined;
  /** The browser is online, the engine reached the server at its last attempt, and a client is set. */
  online: boolean;
}

export function useBeyondScope(): BeyondScope {
  const ctx = useDataContext();
  const { db, userId } = ctx;
  const browserOnline = useSyncExternalStore(subscribeOnline, () => !browserOffline(), () => true);
  // The engine's reach from the status every screen shares (useSyncStatus; online until it is read).
  const status = useSyncStatus();
  const partial = useLiveQuery(() => readScopeIsPartial(ctx), [ctx, db, userId]);
  return { partial, online: browserOnline && status.online && ctx.client !== null };
}

export type BeyondSearchStatus = 'idle' | 'searching' | 'done' | 'offline' | 'error';

export interface BeyondSearch {
  /**
   * idle: nothing to ask (no text, not enabled, or the tablet holds every site); searching;
   * done (results may be empty); offline: the server cannot be asked now; error: it answered with one.
   */
  status: BeyondSearchStatus;
  /** The server's matches that are not on this tablet (re-checked live as rows arrive). */
  results: Participant[];
  error: string | null;
}

interface Answer {
  key: string;
  status: 'done' | 'offline' | 'error';
  rows: Participant[];
  error: string | null;
}

const NONE: Participant[] = [];

/**
 * The server's matches for `text` beyond this tablet: asked 300 ms after typing stops, only while
 * `enabled`, the text has a word and the tablet holds only some sites; a stale answer (the text
 * changed meanwhile) is dropped.
 */
export function useBeyondScopeSearch(text: string, enabled: boolean, options: BeyondSearchOptions = {}): BeyondSearch {
  const ctx = useDataContext();
  const { db } = ctx;
  const { partial, online: reachable } = useBeyondScope();
  const mode = options.mode ?? 'list';
  const status = options.status ?? 'all';
  const limit = options.limit ?? BEYOND_SEARCH_LIMIT;
  const filter = participantSearchFilter(text, mode, status);
  const key = filter ? `${mode}|${limit}|${JSON.stringify(filter)}` : '';
  const active = enabled && partial === true && key !== '';
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    if (!active || !reachable) return;
    let stale = false;
    const timer = setTimeout(() => {
      searchParticipantsBeyond(ctx, text, { mode, status, limit }).then(
        (rows) => {
          if (!stale) setAnswer({ key, status: 'done', rows, error: null });
        },
        (error: unknown) => {
          if (stale) return;
          const offline = error instanceof OfflineError;
          setAnswer({ key, status: offline ? 'offline' : 'error', rows: [], error: (error as Error)?.message || 'Search failed' });
        },
      );
    }, BEYOND_SEARCH_DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
    // `key` stands for text, mode, status and limit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ctx, active, reachable, key]);

  const current = answer && answer.key === key ? answer : null;
  const rows = active && current ? current.rows : NONE;
  const ids = useMemo(() => rows.map((r) => r.id), [rows]);
  // Which of them the tablet holds, live: one arriving by sync (or opened) leaves the list.
  const heldAnswer = useLiveQuery(
    async () => ({ ids, held: new Set(ids.length ? await db.participants.where('id').anyOf(ids).primaryKeys() : []) }),
    [db, ids],
  );
  const held = heldAnswer?.ids === ids ? heldAnswer.held : undefined;
  const results = useMemo(() => (held ? rows.filter((r) => !held.has(r.id)) : NONE), [rows, held]);

  if (!active) return { status: 'idle', results: NONE, error: null };
  if (!reachable) return { status: 'offline', results: NONE, error: null };
  if (!current || !held) return { status: 'searching', results: NONE, error: null };
  return { status: current.status, results: current.status === 'done' ? results : NONE, error: current.error };
}

export type KeepOnTabletStatus = 'checking' | 'idle' | 'fetching' | 'found' | 'none' | 'offline' | 'error';

export interface KeepOnTabletState {
  /**
   * checking: reading the tablet's scope; idle: nothing to fetch (not wanted, or the tablet holds
   * every site, so a missing participant is simply not found); fetching; found: written to the
   * tablet (the page's live query shows it); none: the server has no such participant; offline:
   * beyond this tablet and no connection; error: the server answered with an error.
   */
  status: KeepOnTabletStatus;
  error: string | null;
  retry(): void;
}

interface KeepAnswer {
  key: string;
  status: 'found' | 'none' | 'offline' | 'error';
  error: string | null;
}

/**
 * ParticipantDetail's fetch of a participant the tablet does not hold: while `wanted` (not in the
 * mirror, first sync ready) and the tablet holds only some sites, keepOnTablet(id) once per id
 * (again when the connection returns, or on retry()).
 */
export function useKeepOnTablet(id: string, wanted: boolean): KeepOnTabletState {
  const ctx = useDataContext();
  const { partial, online: reachable } = useBeyondScope();
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<KeepAnswer | null>(null);
  const key = `${id}|${attempt}`;
  const active = wanted && partial === true;

  useEffect(() => {
    if (!active || !reachable) return;
    let stale = false;
    keepOnTablet(ctx, id).then(
      (row) => {
        if (!stale) setAnswer({ key, status: row ? 'found' : 'none', error: null });
      },
      (error: unknown) => {
        if (stale) return;
        setAnswer({ key, status: error instanceof OfflineError ? 'offline' : 'error', error: (error as Error)?.message || 'Failed to load participant' });
      },
    );
    return () => {
      stale = true;
    };
  }, [ctx, active, reachable, id, key]);

  const retry = useMemo(() => () => setAttempt((n) => n + 1), []);
  const current = answer && answer.key === key ? answer : null;
  if (!wanted) return { status: 'idle', error: null, retry };
  if (partial === undefined) return { status: 'checking', error: null, retry };
  if (!partial) return { status: 'idle', error: null, retry };
  if (current?.status === 'found' || current?.status === 'none') return { status: current.status, error: null, retry };
  if (!reachable) return { status: 'offline', error: null, retry };
  if (!current) return { status: 'fetching', error: null, retry };
  return { status: current.status, error: current.error, retry };
}
