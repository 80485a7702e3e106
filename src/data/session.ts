/**
 * The signed-in identity on this device (S11): cached so Passage starts offline, counted before a
 * logout or a different user's sign-in, and wiped on purpose with clearLocalData. What lives in the
 * device's database takes its data context first; the sessions still to end live in web storage.
 */
import type { DataContext } from './context';
import type { User } from '../../shared/entities';
import { forgetRememberedQueries } from './queries/remembered';
import { readVault } from './vault/device-vault';

/** The signed-in user, in meta (sealed while the device is locked, issue #14). */
export const CURRENT_USER_KEY = 'currentUser';
/** The sign-in, sealed (data/device-lock.ts). */
export const SESSION_KEY = 'session';

export async function getCachedUser({ db }: DataContext): Promise<User | null> {
  if (!db.keys.unlocked) {
    // Sealed (issue #14): while locked only the vault's owner id is known. The shell shows the
    // PIN screen for it and reads the whole user once the PIN opened the vault. (A device from
    // before sealing (issue #14) has no vault yet, and its plain row still reads.)
    const vault = await readVault(db);
    if (vault) return { id: vault.user_id, email: '' };
  }
  const row = await db.meta.get(CURRENT_USER_KEY);
  return (row?.value as User | undefined) ?? null;
}

export async function cacheCurrentUser({ db }: DataContext, user: User): Promise<void> {
  // Locked, it cannot be sealed: the shell caches it again right after the device is unlocked.
  if (!db.keys.unlocked) return;
  await db.transaction('rw', db.meta, db.users, async () => {
    await db.meta.put({ key: CURRENT_USER_KEY, value: user });
    // The coach directory (lead coach picker) should know the signed-in user even before a pull:
    // as a directory row (id, email, name: what any coach reads of another), never the full record,
    // which stays sealed in meta (issue #21.6).
    const existing = await db.users.get(user.id);
    if (!existing) await db.users.put(directoryRow(user));
  });
}

function directoryRow(user: User): User {
  const row: User = { id: user.id, email: user.email };
  if (user.full_name !== undefined) row.full_name = user.full_name;
  return row;
}

/**
 * The account whose data this device holds, while it is locked (no token, no key in memory): the
 * start-up shows the PIN screen for it. null when the device holds no vault.
 */
export async function lockedVaultOwner({ db }: DataContext): Promise<User | null> {
  if (db.keys.unlocked) return null;
  const vault = await readVault(db).catch(() => null);
  if (!vault) return null;
  // Signed out with a copy kept for its waiting changes (S11): no sealed sign-in is left, so the
  // next person signs in (their own account, or the owner with a fresh password) instead of
  // facing the previous coach's PIN screen.
  // Counted, not read: the row is sealed and the key is not in memory.
  const sealedSession = await db.meta.where('key').equals(SESSION_KEY).count().catch(() => 0);
  return sealedSession ? { id: vault.user_id, email: '' } : null;
}

/** Ops of this user not yet on the server, rejected ones included (logout warns with it, S11). */
export async function pendingCountFor({ db }: DataContext, userId: string): Promise<number> {
  return db.outbox.where('user_id').equals(userId).count();
}

/** User ids other than `userId` that still have ops in the outbox (a new sign-in is stopped, S11). */
export async function otherUsersWithPendingOps({ db }: DataContext, userId: string): Promise<string[]> {
  const keys = await db.outbox.orderBy('user_id').uniqueKeys();
  return keys.map(String).filter((k) => k !== userId);
}

/**
 * Erase everything this device holds (logout with nothing waiting, an administrator's revocation,
 * the pending-changes gate's discard; issue #21.6): the IndexedDB database itself is deleted, not
 * only emptied, and every `academy_*` / `passage_*` key and the platform's `token` key go from
 * localStorage and sessionStorage. The database opens again, empty, if the app goes on using it.
 */
export async function clearLocalData({ db }: DataContext): Promise<void> {
  db.keys.clear();
  forgetRememberedQueries();
  await db.delete({ disableAutoOpen: false });
  // A fresh, empty database at once: screens still open re-read it and must not meet an error.
  await db.open().catch(() => undefined);
  clearStoredKeys();
}

/** Every key Passage or the platform's SDK keeps in web storage. */
export function clearStoredKeys(): void {
  for (const store of webStorages()) {
    let keys: string[] = [];
    try {
      keys = Object.keys(store);
    } catch {
      continue;
    }
    for (const key of keys) {
      if (key.startsWith('academy_') || key.startsWith('passage_') || key === 'token' || key.startsWith('base44_')) store.removeItem(key);
    }
  }
}

function webStorages(): Storage[] {
  const out: Storage[] = [];
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      const store = globalThis[name];
      if (store) out.push(store);
    } catch {
      // Blocked storage (privacy modes): nothing of ours is in it.
    }
  }
  return out;
}

/**
 * Sessions to end on the server at the next contact (issue #21.6: a logout or an erase without a
 * connection). Only session ids: an id lets whoever holds it end that session, nothing else.
 */
const SESSIONS_TO_END = 'passage_end_sessions';

export function rememberSessionToEnd(sid: string): void {
  try {
    const list = sessionsToEnd();
    if (!list.includes(sid)) localStorage.setItem(SESSIONS_TO_END, JSON.stringify([...list, sid].slice(-20)));
  } catch {
    // Storage blocked: the session still expires with its token (12 h).
  }
}

export function sessionsToEnd(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(SESSIONS_TO_END) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function sessionsEnded(ids: readonly string[]): void {
  try {
    const left = sessionsToEnd().filter((s) => !ids.includes(s));
    if (left.length) localStorage.setItem(SESSIONS_TO_END, JSON.stringify(left));
    else localStorage.removeItem(SESSIONS_TO_END);
  } catch {
    // Nothing to do.
  }
}
