import { useLiveQuery } from 'dexie-react-hooks';
import { dataContext } from '../context';
import type { User } from '../../../shared/entities';

/** The database of the data context: the one commands write (tests point both at a fresh one). */
const db = () => dataContext().db;

/** The coach directory entry the Lead Coach picker needs (spec 7.3: id, email, full_name). */
export type Coach = Pick<User, 'id' | 'email' | 'full_name'>;

/** 'full_name (email)', or the email alone when the user has no name yet. */
export function coachLabel(user: Coach): string {
  return user.full_name ? `${user.full_name} (${user.email})` : user.email;
}

/** Every user in the mirror, by name then email. */
export function useUsers(): Coach[] | undefined {
  return useLiveQuery(async () => {
    const rows = await db().users.toArray();
    return rows
      .map(({ id, email, full_name }) => ({ id, email, full_name }))
      .sort((a, b) => (a.full_name || a.email).localeCompare(b.full_name || b.email, undefined, { sensitivity: 'base' }));
  }, []);
}
