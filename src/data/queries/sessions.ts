import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import { resolvedId } from './by-id';
import type { Session } from '../../../shared/entities';

/** The sessions of a cohort (cohort_id index), by session number. */
export function useSessionsOfCohort(cohortId: string): Session[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => {
    const id = await resolvedId(ctx, cohortId);
    const rows = await ctx.db.sessions.where('cohort_id').equals(id).toArray();
    return rows.sort((a, b) => (a.session_number ?? Number.MAX_SAFE_INTEGER) - (b.session_number ?? Number.MAX_SAFE_INTEGER));
  }, [ctx, cohortId]);
}
