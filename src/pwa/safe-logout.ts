import { clearLocalData, otherUsersWithPendingOps, pendingCountFor } from '../data/session';
import { confirmLogout } from './confirm-logout';

export interface SafeLogoutDeps {
  pendingCountFor: (userId: string) => Promise<number>;
  otherUsersWithPendingOps: (userId: string) => Promise<string[]>;
  clearLocalData: () => Promise<void>;
  confirm: (pendingCount: number) => Promise<boolean>;
}

const defaults: SafeLogoutDeps = { pendingCountFor, otherUsersWithPendingOps, clearLocalData, confirm: confirmLogout };

/**
 * Logout on a shared tablet (S11). With changes pending it asks first; once nothing of anybody is
 * pending it wipes the local copy (names, prison numbers, release dates) before signing out, so the
 * next person on the tablet cannot read it. With changes pending the copy must stay: those changes
 * live in it and would otherwise be lost. Resolves false when the coach chose to stay.
 */
export async function logOutSafely(userId: string | null, signOut: () => void | Promise<void>, deps: SafeLogoutDeps = defaults): Promise<boolean> {
  const mine = userId ? await deps.pendingCountFor(userId) : 0;
  if (!(await deps.confirm(mine))) return false;
  // '' matches no user: with nobody signed in, every user's ops count as someone else's.
  const others = await deps.otherUsersWithPendingOps(userId ?? '');
  if (mine === 0 && others.length === 0) await deps.clearLocalData();
  await signOut();
  return true;
}
