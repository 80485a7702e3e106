/**
 * Who a signed-in user is, derived from their User fields (spec.md sections 2.3, 2.14, 4 and 6).
 * The one definition both sides use: the server's permission table (server/auth/permissions.ts)
 * and the client's access guard, ProfileSetup and sync runtime (src/domain/access.ts). Before
 * this file the two had their own copies and disagreed (an approved guest was let in by the
 * client and refused by the server, so every read failed).
 *
 * - admin: role 'admin', whatever else is set (admins bypass the guard).
 * - coach: role 'user', approved, and a profile submitted (requested_access_date): the only
 *   non-admin state that may use the app. The guard of spec 2.3 reads both fields, so an approved
 *   user without a request date still completes the profile first.
 * - no_profile: not admin, no requested_access_date: fill in the coach profile.
 * - rejected: role 'guest' (rejected or revoked, spec 4). A guest stays out even if `approved` is
 *   true: spec 6 sends "guest, or not approved" to ProfileSetup and 2.14 sends home only
 *   non-guests. Access is never granted on a half-applied revoke.
 * - pending: a request is waiting (any other role, not approved).
 */
export type AccessState = 'admin' | 'coach' | 'no_profile' | 'pending' | 'rejected';

/** The User fields the state reads (typed loosely: the server sees schemaless JSON). */
export interface AccessFields {
  role?: unknown;
  approved?: unknown;
  requested_access_date?: unknown;
}

export function accessState(user: AccessFields): AccessState {
  if (user.role === 'admin') return 'admin';
  if (!user.requested_access_date) return 'no_profile';
  if (user.role === 'guest') return 'rejected';
  if (user.role === 'user' && user.approved === true) return 'coach';
  return 'pending';
}

/** May this user read and write the app's entities (an admin or an approved coach)? */
export function hasAppAccess(user: AccessFields): boolean {
  const state = accessState(user);
  return state === 'admin' || state === 'coach';
}
