import { db as appDb, type PassageDB } from './db';
import type { PlatformClientLike } from './platform-like';

/**
 * The world the commands, session helpers and status hooks act on. The runtime fills it in at
 * sign-in (startDataSync); tests set their own database and clock with `setDataContext`, so a
 * command never reaches for a global it cannot replace.
 */
export interface SyncControl {
  /** Sync as soon as possible (the "Sync now" button, S9). */
  syncNow(): void;
  /** A local write committed: sync about 1 s later, debounced (S9). */
  localWrite(): void;
}

export interface DataContext {
  db: PassageDB;
  /** The signed-in user; every outbox op carries it (S11). */
  userId: string | null;
  now: () => number;
  newUuid: () => string;
  /** Online-only calls (coach approvals) go through this; null before sign-in. */
  client: PlatformClientLike | null;
  sync: SyncControl | null;
}

function defaultContext(): DataContext {
  return {
    db: appDb,
    userId: null,
    now: () => Date.now(),
    newUuid: () => globalThis.crypto.randomUUID(),
    client: null,
    sync: null,
  };
}

let current: DataContext = defaultContext();

export function dataContext(): DataContext {
  return current;
}

/** Replace parts of the context (runtime at sign-in; tests with their own db). */
export function setDataContext(patch: Partial<DataContext>): void {
  current = { ...current, ...patch };
}

export function resetDataContext(): void {
  current = defaultContext();
}

/** Tell the sync engine a local write committed (called only after the transaction, S1). */
export function notifyLocalWrite(): void {
  current.sync?.localWrite();
}
