import { useLiveQuery } from 'dexie-react-hooks';
import { dataContext } from '../context';

/** The database of the data context: the one commands write (tests point both at a fresh one). */
const db = () => dataContext().db;

/** Number of Outcome records of a participant (spec 2.7 Quick Stats): an index count, no rows read. */
export function useOutcomeCount(participantId: string): number | undefined {
  return useLiveQuery(async () => {
    const id = (await db().aliases.get(participantId))?.server_id ?? participantId;
    return db().outcomes.where('participant_id').equals(id).count();
  }, [participantId]);
}
