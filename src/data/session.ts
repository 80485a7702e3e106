import { dataContext } from './context';
import type { User } from '../../shared/entities';
import { forgetRememberedQueries } from './queries/remembered';
import { readVault } from './vault/device-vault';

/**
 * The signed-in identity on this device (S11): cached so Passage starts offline, counted before a
 * logout or a different user's sign-in, and wiped on purpose with clearLocalData.
 */
export const CURRENT_USER_KEY = 'currentUser';

export async function getCachedUser(): Promise<User | null> {
  const { db } = dataContext();
  if (!db.keys.unlocked) {
    // Sealed (issue #14): while locked only the vault's owner id is known. The shell shows the
    // PIN screen for it and reads the whole user once the PIN opened the vault. (A device from
    // before encryption has no vault yet, and its plain row still reads.)
    const vault = await readVault(db);
    if (vault) return { id: vault.user_id, email: '' };
  }
  const row = await db.meta.get(CURRENT_USER_KEY);
  return (row?.value as User | undefined) ?? null;
}

export async function cacheCurrentUser(user: User): Promise<void> {
  const { db } = dataContext();
  // Locked, it cannot be sealed: the shell caches it again right after the device is unlocked.
  if (!db.keys.unlocked) return;
  await db.transaction('rw', db.meta, db.users, async () => {
    await db.meta.put({ key: CURRENT_USER_KEY, value: user });
    // The coach directory (lead coach picker) should know the signed-in user even before a pull.
    const existing = await db.users.get(user.id);
    if (!existing) await db.users.put(user);
  });
}

/** Ops of this user not yet on the server, rejected ones included (logout warns with it, S11). */
export async function pendingCountFor(userId: string): Promise<number> {
  return dataContext().db.outbox.where('user_id').equals(userId).count();
}

/** User ids other than `userId` that still have ops in the outbox (a new sign-in is stopped, S11). */
export async function otherUsersWithPendingOps(userId: string): Promise<string[]> {
  const keys = await dataContext().db.outbox.orderBy('user_id').uniqueKeys();
  return keys.map(String).filter((k) => k !== userId);
}

/** Wipe everything this device holds: mirror, outbox, conflicts, aliases, sync state, cached user, keys. */
export async function clearLocalData(): Promise<void> {
  const { db } = dataContext();
  await db.transaction('rw', db.tables, async () => {
    await Promise.all(db.tables.map((t) => t.clear()));
  });
  // After the rows are gone: open screens re-reading them never meet a sealed row without a key.
  db.keys.clear();
  // Commit, then tell the world: the in-memory copies of lists go too.
  forgetRememberedQueries();
}
