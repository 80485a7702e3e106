import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { dataContext } from '../context';
import { OfflineError } from '../errors';
import type { Row } from '../platform-like';
import { onlineOf, readStatusRow } from '../queries/sync-status';
import { isTempId } from '../sync/references';
import { chunkIds, OPENED_TTL_MS, TABLET_SCOPE_KEY, type PinRow, type TabletScope } from '../sync/scope';
import { UID_FIELD } from '../../../shared/config';
import type { Cohort, Enrollment, EntityName, Outcome, Participant, ProgramStatus } from '../../../shared/entities';

/**
 * Issue #22.2, beyond the scope, online. A tablet holds its user's sites; the Participants list,
 * the enrol search and ParticipantDetail also ask the server, when online, for participants the
 * tablet does not hold, and opening one keeps it on the tablet for a day (a pin, OPENED_TTL_MS),
 * long enough to work with it offline later that day. The engine then keeps the pinned
 * participant (its row, enrollments and outcomes) and the pinned cohorts until the pin lapses.
 *
 * Online only, never queued: these read the server, like the approvals.
 */

/** What keepOnTablet and the search throw when the server cannot be reached. */
export const BEYOND_SCOPE_OFFLINE_MESSAGE = 'You are offline. Participants of other sites can be opened when you are online.';

/** Server matches asked for at most (the screens show them under the tablet's own). */
export const BEYOND_SEARCH_LIMIT = 20;

/** Typing pauses this long before the server is asked. */
export const BEYOND_SEARCH_DEBOUNCE_MS = 300;

/** Which screen's matching rules: the Participants list (spec 2.5) or the enrol search (spec 2.10). */
export type BeyondSearchMode = 'list' | 'enrol';

/** The fields each search matches, as the local searches do (domain/participant-search.ts, enrol-search.ts). */
export const SEARCH_FIELDS: Record<BeyondSearchMode, readonly string[]> = {
  list: ['first_name', 'last_name', 'email'],
  enrol: ['first_name', 'last_name', UID_FIELD],
};

/** Words of the text used at most, and characters of one word (the server bounds a `$regex` to 200). */
const MAX_WORDS = 8;
const MAX_WORD_CHARS = 60;

/** The text as a regular expression matching it literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The entity filter of a search: every word of the text must appear (case-insensitively) in one of
 * the mode's fields, `{$and: [{$or: [{field: {$regex, $options: 'i'}}, …]}, …]}`, plus the
 * program_status filter of the list when one is chosen. Null when the text has no words.
 */
export function participantSearchFilter(
  text: string,
  mode: BeyondSearchMode = 'list',
  status: ProgramStatus | 'all' = 'all',
): Record<string, unknown> | null {
  const words = [...new Set(text.trim().toLowerCase().split(/\s+/).filter(Boolean))].slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  const fields = SEARCH_FIELDS[mode];
  const and: Array<Record<string, unknown>> = words.map((word) => {
    const pattern = escapeRegex(word.slice(0, MAX_WORD_CHARS));
    return { $or: fields.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } })) };
  });
  if (status !== 'all') and.push({ program_status: status });
  return { $and: and };
}

export interface BeyondSearchOptions {
  limit?: number;
  mode?: BeyondSearchMode;
  /** The list's program-status filter. */
  status?: ProgramStatus | 'all';
}

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function client() {
  const c = dataContext().client;
  if (!c || browserOffline()) throw new OfflineError(BEYOND_SCOPE_OFFLINE_MESSAGE);
  return c;
}

/** The platform client throws PlatformError: no status means no HTTP answer arrived. */
function noAnswer(error: unknown): boolean {
  return (error as { status?: number } | null)?.status === undefined;
}

async function online<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (noAnswer(error)) throw new OfflineError(BEYOND_SCOPE_OFFLINE_MESSAGE);
    throw error;
  }
}

/**
 * The server's participants matching the text (the same fields as the screen's local search),
 * sorted like the list (enrollment_date newest first), at most `limit`. Throws OfflineError
 * without a connection.
 */
export async function searchParticipantsBeyond(text: string, options: BeyondSearchOptions = {}): Promise<Participant[]> {
  const q = participantSearchFilter(text, options.mode ?? 'list', options.status ?? 'all');
  if (!q) return [];
  const c = client();
  const rows = await online(() => c.entities('Participant').filter(q, '-enrollment_date', options.limit ?? BEYOND_SEARCH_LIMIT));
  return rows as unknown as Participant[];
}

/** Rows of one entity whose `field` is one of `ids`, chunked so no URL grows too long (issue #22.5). */
async function filterIn(entity: EntityName, field: string, ids: readonly string[]): Promise<Row[]> {
  const c = client();
  const rows: Row[] = [];
  for (const chunk of chunkIds(ids)) rows.push(...(await online(() => c.entities(entity).filter({ [field]: { $in: chunk } }))));
  return rows;
}

/**
 * Opens a participant from beyond the tablet's scope: fetches it, its enrollments, their cohorts
 * and its outcomes, and writes them into the mirror with 'opened' pins (until now + OPENED_TTL_MS)
 * for the participant and those cohorts, all in one transaction. A row with changes still queued
 * on this tablet is left as it is (the queued change wins until it is sent), and so is one the
 * mirror holds in a newer version. Returns the participant as the tablet now holds it, or null
 * when the server has no such participant. Throws OfflineError without a connection.
 */
export async function keepOnTablet(participantId: string): Promise<Participant | null> {
  // The server never hands out a temporary id: a record made on a tablet is not there by it.
  if (!participantId || isTempId(participantId)) return null;
  const c = client();
  let participant: Row | null;
  try {
    participant = await online(() => c.entities('Participant').get(participantId));
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
  if (!participant?.id) return null;

  const byParticipant = { participant_id: participant.id };
  const [enrollments, outcomes] = await Promise.all([
    online(() => c.entities('Enrollment').filter(byParticipant)),
    online(() => c.entities('Outcome').filter(byParticipant)),
  ]);
  const cohortIds = [...new Set(enrollments.map((e) => e.cohort_id).filter((id): id is string => typeof id === 'string' && id !== ''))];
  const cohorts = cohortIds.length ? await filterIn('Cohort', 'id', cohortIds) : [];

  const { db, now } = dataContext();
  const until = now() + OPENED_TTL_MS;
  return db.transaction('rw', [db.participants, db.enrollments, db.cohorts, db.outcomes, db.outbox, db.conflicts, db.pins], async () => {
    // Changes still queued (any state) or an open conflict: the tablet's copy stays as it is.
    const queued = async (entity: EntityName, id: string) =>
      (await db.outbox.where('[entity+record_id]').equals([entity, id]).count()) > 0 ||
      (await db.conflicts.where('[entity+record_id]').equals([entity, id]).filter((c) => c.status === 'open').count()) > 0;
    /** Puts the server's rows, except those with queued changes or a newer copy on the tablet. */
    const putRows = async <T extends { id: string; updated_date?: string }>(entity: EntityName, table: { bulkGet(ids: string[]): Promise<(T | undefined)[]>; bulkPut(rows: T[]): Promise<unknown> }, rows: Row[]) => {
      if (rows.length === 0) return;
      const held = await table.bulkGet(rows.map((r) => r.id));
      const fresh: T[] = [];
      for (const [i, row] of (rows as unknown as T[]).entries()) {
        if (await queued(entity, row.id)) continue;
        const mine = held[i];
        if (mine?.updated_date && row.updated_date && mine.updated_date > row.updated_date) continue;
        fresh.push(row);
      }
      if (fresh.length) await table.bulkPut(fresh);
    };
    await putRows<Participant>('Participant', db.participants, [participant]);
    await putRows<Enrollment>('Enrollment', db.enrollments, enrollments);
    await putRows<Cohort>('Cohort', db.cohorts, cohorts);
    await putRows<Outcome>('Outcome', db.outcomes, outcomes);

    const pins: PinRow[] = [
      { entity: 'Participant', id: participant.id, reason: 'opened', until },
      ...cohorts.map((cohort): PinRow => ({ entity: 'Cohort', id: cohort.id, reason: 'opened', until })),
    ];
    // An opened pin is extended, never shortened; an 'own' pin (this tablet's intake) is another row.
    const existing = await db.pins.bulkGet(pins.map((p) => [p.entity, p.id, p.reason] as [string, string, string]));
    const next = pins.filter((_, i) => !((existing[i]?.until ?? 0) >= until));
    if (next.length) await db.pins.bulkPut(next);
    return (await db.participants.get(participant.id)) ?? null;
  });
}

// ---------------------------------------------------------------------------------------------
// React hooks

/**
 * Whether this tablet holds only some sites for the signed-in user (meta 'tabletScope', written
 * by the engine): then participants of other sites exist beyond it. undefined while reading; false
 * when it holds every site or no scope was derived for this user yet (the tablet then holds what
 * it always held, and nothing is searched online).
 */
export async function readScopeIsPartial(): Promise<boolean> {
  const { db, userId } = dataContext();
  const scope = (await db.meta.get(TABLET_SCOPE_KEY))?.value as TabletScope | undefined;
  return !!scope && scope.userId === userId && !scope.all;
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
  const { db, userId } = dataContext();
  const browserOnline = useSyncExternalStore(subscribeOnline, () => !browserOffline(), () => true);
  // One string, so the engine's frequent status writes re-render nothing unless these two change.
  const facts = useLiveQuery(async () => `${await readScopeIsPartial()}|${onlineOf(await readStatusRow())}`, [db, userId]);
  return {
    partial: facts === undefined ? undefined : facts.startsWith('true|'),
    online: browserOnline && !facts?.endsWith('|false') && dataContext().client !== null,
  };
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
      searchParticipantsBeyond(text, { mode, status, limit }).then(
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
  }, [active, reachable, key]);

  const current = answer && answer.key === key ? answer : null;
  const rows = active && current ? current.rows : NONE;
  const ids = useMemo(() => rows.map((r) => r.id), [rows]);
  const { db } = dataContext();
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
  const { partial, online: reachable } = useBeyondScope();
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<KeepAnswer | null>(null);
  const key = `${id}|${attempt}`;
  const active = wanted && partial === true;

  useEffect(() => {
    if (!active || !reachable) return;
    let stale = false;
    keepOnTablet(id).then(
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
  }, [active, reachable, id, key]);

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
