import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import { resolvedId } from './by-id';

/** Number of Outcome records of a participant (spec 2.7 Quick Stats): an index count, no rows read. */
export function useOutcomeCount(participantId: string): number | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => {
    const id = await resolvedId(ctx, participantId);
    return ctx.db.outcomes.where('participant_id').equals(id).count();
  }, [ctx, participantId]);
}
