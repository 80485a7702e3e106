import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import type { User } from '../../../shared/entities';

/** The coach directory entry the Lead Coach picker needs (spec 7.3: id, email, full_name). */
export type Coach = Pick<User, 'id' | 'email' | 'full_name'>;

/** 'full_name (email)', or the email alone when the user has no name yet. */
export function coachLabel(user: Coach): string {
  return user.full_name ? `${user.full_name} (${user.email})` : user.email;
}

/**
 * Approved coaches and admins, by name then email — the Lead Coach picker (issue #12.8). A coach's
 * mirror holds only what the server lists to coaches (approved users and admins, as id, email and
 * full_name); an admin's mirror holds every user with role and approval, filtered here.
 */
export function useUsers(): Coach[] | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => {
    const rows = await db.users.toArray();
    return rows
      .filter((u) => !('role' in u) || ((u.role === 'admin' || u.approved === true) && (u as { disabled?: boolean }).disabled !== true))
      .map(({ id, email, full_name }) => ({ id, email, full_name }))
      .sort((a, b) => (a.full_name || a.email).localeCompare(b.full_name || b.email, undefined, { sensitivity: 'base' }));
  }, [db]);
}

/**
 * Everyone the mirror knows, approved or not, as id → name or email: for naming the owners of
 * changes left on this device (the S11 gate), who may well be a coach still awaiting approval.
 */
export function useUserNames(): Map<string, string> | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => new Map((await db.users.toArray()).map((u) => [u.id, u.full_name || u.email])), [db]);
}
