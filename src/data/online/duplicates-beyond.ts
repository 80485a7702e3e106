/**
 * Issue #23.7, online: possible duplicates of an intake beyond this tablet's sites. The server's
 * `participantDuplicates` answers the academy's participants with the same CDCR number or date of
 * birth (and where they are enrolled); the tablet keeps those the rule of
 * domain/duplicate-candidates.ts keeps, so the names a coach types never leave the tablet and
 * typing a name asks nothing again. Online only, never queued, like the search beyond the tablet.
 */
import { useEffect, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { DataContext } from '../context';
import { OfflineError } from '../errors';
import { useDataContext } from '../provider';
import type { DuplicatePlace } from '../queries/duplicates';
import { cdcrKey } from '../../../shared/participant-keys';
import type { Participant } from '../../../shared/entities';
import { duplicateCandidates, dobKey, type DuplicateDraft, type DuplicateReason } from '../../domain/duplicate-candidates';
import { BEYOND_SCOPE_OFFLINE_MESSAGE, BEYOND_SEARCH_DEBOUNCE_MS, browserOffline } from './beyond-scope';
import { useBeyondScope } from './beyond-scope-hooks';

/** The values the server is asked about: a CDCR key and a whole date, or nothing. */
export interface DuplicateQuestion {
  cdcr_number: string | null;
  date_of_birth: string | null;
}

export interface HeldElsewhere {
  participant: Participant;
  places: DuplicatePlace[];
}

export interface BeyondDuplicate extends HeldElsewhere {
  reason: DuplicateReason;
}

const FUNCTION = 'participantDuplicates';
/** Clients whose server answered 404 for the function: that platform has none. */
const withoutFunction = new WeakSet<object>();

export function duplicateQuestion(draft: DuplicateDraft): DuplicateQuestion | null {
  const cdcr = cdcrKey(draft.cdcr_number);
  const dob = dobKey(draft.date_of_birth);
  return cdcr || dob ? { cdcr_number: cdcr, date_of_birth: dob } : null;
}

/** The server's participants with the question's CDCR number or date of birth. Throws OfflineError without a connection. */
export async function askDuplicatesBeyond(ctx: DataContext, question: DuplicateQuestion): Promise<HeldElsewhere[]> {
  const c = ctx.client;
  if (!c || browserOffline()) throw new OfflineError(BEYOND_SCOPE_OFFLINE_MESSAGE);
  try {
    if (c.functions && !withoutFunction.has(c)) {
      try {
        return ((await c.functions.invoke(FUNCTION, { ...question })).data as { matches: HeldElsewhere[] }).matches;
      } catch (error) {
        if ((error as { status?: number } | null)?.status !== 404) throw error;
        withoutFunction.add(c);
      }
    }
    // The plain platform: exact values only (no CDCR key there), in a GET filter.
    const or = [
      ...(question.cdcr_number ? [{ cdcr_number: question.cdcr_number }] : []),
      ...(question.date_of_birth ? [{ date_of_birth: question.date_of_birth }] : []),
    ];
    const rows = await c.entities('Participant').filter({ $or: or }, 'created_date', 20);
    return (rows as unknown as Participant[]).map((participant) => ({ participant, places: [] }));
  } catch (error) {
    if ((error as { status?: number } | null)?.status === undefined) throw new OfflineError(BEYOND_SCOPE_OFFLINE_MESSAGE);
    throw error;
  }
}

export type BeyondDuplicatesStatus = 'idle' | 'searching' | 'done' | 'offline' | 'error';

export interface BeyondDuplicates {
  /** idle: nothing to ask (no CDCR number or date yet, or the tablet holds every site). */
  status: BeyondDuplicatesStatus;
  /** The matches the tablet does not hold (re-checked live as rows arrive). */
  matches: BeyondDuplicate[];
}

interface Answer {
  key: string;
  status: 'done' | 'offline' | 'error';
  held: HeldElsewhere[];
}

const NONE: BeyondDuplicate[] = [];

/**
 * The possible duplicates of `draft` at other sites: the server asked BEYOND_SEARCH_DEBOUNCE_MS
 * after the CDCR number or date of birth stops changing, only while the tablet holds some sites;
 * the names are compared here, at every keystroke, without asking again.
 */
export function useDuplicatesBeyond(draft: DuplicateDraft): BeyondDuplicates {
  const ctx = useDataContext();
  const { db } = ctx;
  const { partial, online: reachable } = useBeyondScope();
  const question = duplicateQuestion(draft);
  const key = question ? JSON.stringify(question) : '';
  const active = partial === true && key !== '';
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    if (!active || !reachable) return;
    let stale = false;
    const timer = setTimeout(() => {
      askDuplicatesBeyond(ctx, JSON.parse(key) as DuplicateQuestion).then(
        (held) => {
          if (!stale) setAnswer({ key, status: 'done', held });
        },
        (error: unknown) => {
          if (!stale) setAnswer({ key, status: error instanceof OfflineError ? 'offline' : 'error', held: [] });
        },
      );
    }, BEYOND_SEARCH_DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [ctx, active, reachable, key]);

  const current = active && answer?.key === key ? answer : null;
  const heldRows = current?.held;
  const ids = useMemo(() => (heldRows ?? []).map((h) => h.participant.id), [heldRows]);
  // Which of them the tablet holds, live: those are listed as the tablet's own.
  const onTablet = useLiveQuery(
    async () => ({ ids, held: new Set(ids.length ? await db.participants.where('id').anyOf(ids).primaryKeys() : []) }),
    [db, ids],
  );
  const { first_name, last_name, date_of_birth, cdcr_number } = draft;
  const matches = useMemo(() => {
    if (!heldRows || onTablet?.ids !== ids) return NONE;
    const elsewhere = heldRows.filter((h) => !onTablet.held.has(h.participant.id));
    const byId = new Map(elsewhere.map((h) => [h.participant.id, h]));
    const kept = duplicateCandidates({ first_name, last_name, date_of_birth, cdcr_number }, elsewhere.map((h) => h.participant));
    return kept.map((m) => ({ ...byId.get(m.participant.id)!, reason: m.reason }));
  }, [heldRows, onTablet, ids, first_name, last_name, date_of_birth, cdcr_number]);

  if (!active) return { status: 'idle', matches: NONE };
  if (!reachable) return { status: 'offline', matches: NONE };
  if (!current || onTablet?.ids !== ids) return { status: 'searching', matches: NONE };
  return { status: current.status, matches: current.status === 'done' ? matches : NONE };
}
