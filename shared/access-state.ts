/**
 * Who a signed-in user is, derived from their User fields (spec.md section 4): admins are admins
 * whatever else is set; an approved coach is role 'user' AND approved true; everyone else is one
 * of the not-approved states and may only see and edit their own profile.
 */
export type AccessState = 'admin' | 'coach' | 'no_profile' | 'pending' | 'rejected';

export interface UserFields {
  id: string;
  email?: unknown;
  role?: unknown;
  approved?: unknown;
  requested_access_date?: unknown;
  disabled?: unknown;
}

export function accessState(user: UserFields): AccessState {
  if (user.role === 'admin') return 'admin';
  if (user.role === 'user' && user.approved === true) return 'coach';
  if (!user.requested_access_date) return 'no_profile';
  if (user.role === 'guest' && user.approved !== true) return 'rejected';
  return 'pending';
}
