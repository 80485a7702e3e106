/**
 * Issue #23.7: possible duplicates of the participant being added, on this tablet. The rule is
 * domain/duplicate-candidates.ts; the candidates are the whole participants list the Participants
 * page already reads (its remembered answer: the sealed rows are opened once per data change, not
 * per keystroke), indexed by CDCR key and date of birth once per change of it, so a keystroke is a
 * map look-up and a comparison of names with the few people born that day.
 */
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import type { Participant } from '../../../shared/entities';
import { findDuplicates, indexForDuplicates, type DuplicateDraft, type DuplicateMatch } from '../../domain/duplicate-candidates';
import { useParticipants } from './participants';

/** Where a possible duplicate is enrolled: a cohort's code and its site's name, when known. */
export interface DuplicatePlace {
  cohort_code: string | null;
  site_name: string | null;
}

export interface LocalDuplicates {
  /** undefined while the list is read. */
  matches: DuplicateMatch<Participant>[] | undefined;
  /** By participant id. */
  places: ReadonlyMap<string, DuplicatePlace[]>;
}

const NO_PLACES: ReadonlyMap<string, DuplicatePlace[]> = new Map();

function sameMatches(a: DuplicateMatch<Participant>[] | undefined, b: DuplicateMatch<Participant>[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((m, i) => m.participant === b[i].participant && m.reason === b[i].reason);
}

export function useLocalDuplicates(draft: DuplicateDraft): LocalDuplicates {
  const { db } = useDataContext();
  const participants = useParticipants();
  const index = useMemo(() => (participants ? indexForDuplicates(participants) : undefined), [participants]);
  const { first_name, last_name, date_of_birth, cdcr_number } = draft;
  const found = useMemo(
    () => (index ? findDuplicates(index, { first_name, last_name, date_of_birth, cdcr_number }) : undefined),
    [index, first_name, last_name, date_of_birth, cdcr_number],
  );
  // The same people for the same reasons keep the same answer, so a keystroke that changes
  // nothing renders nothing again downstream (React's "state from the previous render" pattern).
  const [matches, setMatches] = useState(found);
  if (matches !== found && !sameMatches(matches, found)) setMatches(found);
  const ids = useMemo(() => (matches ?? []).map((m) => m.participant.id), [matches]);
  const key = ids.join('|');
  const places = useLiveQuery(async () => {
    if (ids.length === 0) return NO_PLACES;
    const enrollments = await db.enrollments.where('participant_id').anyOf(ids).toArray();
    const cohorts = await db.cohorts.bulkGet([...new Set(enrollments.map((e) => e.cohort_id))]);
    const cohortById = new Map(cohorts.filter((c) => !!c).map((c) => [c!.id, c!]));
    const sites = await db.sites.bulkGet([...new Set([...cohortById.values()].map((c) => c.site_id))]);
    const siteById = new Map(sites.filter((s) => !!s).map((s) => [s!.id, s!]));
    const out = new Map<string, DuplicatePlace[]>();
    for (const e of enrollments) {
      const cohort = cohortById.get(e.cohort_id);
      const place = { cohort_code: cohort?.cohort_code ?? null, site_name: (cohort && siteById.get(cohort.site_id)?.site_name) ?? null };
      out.set(e.participant_id, [...(out.get(e.participant_id) ?? []), place]);
    }
    return out;
    // `key` stands for the ids: a new list with the same people reads nothing again.
  }, [db, key]);
  return { matches, places: places ?? NO_PLACES };
}
