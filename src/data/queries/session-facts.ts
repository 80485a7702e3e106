/**
 * What the auth shell watches on this device (S11): other users' changes still waiting here, and
 * the cached signed-in user, both live — they follow a profile submission, a pulled approval or a
 * discard in the same transaction. The readers come from the shell's environment (data/session on
 * this device, or a test's fakes), so the live-query machinery stays in data/queries.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { User } from '../../../shared/entities';

export interface SessionReaders {
  otherUsersWithPendingOps(userId: string): Promise<string[]>;
  getCachedUser(): Promise<User | null>;
}

export interface SessionFacts {
  /** Ids of other users with changes waiting here; undefined while counting for this user. */
  othersPending: string[] | undefined;
  /** The cached user when it is this user; undefined while reading or when it is someone else. */
  cachedUser: User | null | undefined;
}

/** `readAgain` (e.g. the lock state) reads the cached user anew when it changes. */
export function useSessionFacts(userId: string | undefined, readers: SessionReaders, readAgain?: unknown): SessionFacts {
  // Tagged with the user it was counted for: while a new query runs, useLiveQuery still returns the
  // previous answer, and the signed-out answer ([]) must not let a new user's sync start.
  const others = useLiveQuery(
    async () => ({ userId, ids: userId ? await readers.otherUsersWithPendingOps(userId).catch(() => [] as string[]) : [] }),
    [userId, readers],
  );
  // Read again on unlock: while locked only the vault's owner id is known.
  const cached = useLiveQuery(() => (userId ? readers.getCachedUser().catch(() => null) : null), [userId, readers, readAgain]);
  return {
    othersPending: others && others.userId === userId ? others.ids : undefined,
    cachedUser: cached && cached.id === userId ? cached : undefined,
  };
}
