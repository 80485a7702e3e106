import { useLiveQuery } from 'dexie-react-hooks';
import { dataContext } from '../context';
import type { Session } from '../../../shared/entities';

/** The database of the data context: the one commands write (tests point both at a fresh one). */
const db = () => dataContext().db;

/** The sessions of a cohort (cohort_id index), by session number. */
export function useSessionsOfCohort(cohortId: string): Session[] | undefined {
  return useLiveQuery(async () => {
    const id = (await db().aliases.get(cohortId))?.server_id ?? cohortId;
    const rows = await db().sessions.where('cohort_id').equals(id).toArray();
    return rows.sort((a, b) => (a.session_number ?? Number.MAX_SAFE_INTEGER) - (b.session_number ?? Number.MAX_SAFE_INTEGER));
  }, [cohortId]);
}
