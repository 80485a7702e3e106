/**
 * The data context: the world the commands, queries, online calls, session helpers and the runtime
 * act on — one device's database, signed-in user, clock, uuid source, platform client and sync
 * control. Nothing in data/ reaches for a global one: the app makes one per device
 * (`createDataContext` in src/main.tsx) and hands it down (`<DataProvider>` for the screens, the
 * first argument of every command: `createParticipant(ctx, input)`); a test builds as many devices
 * as it needs (test/support/device.ts `makeDevice`), each with its own.
 *
 * One object per device, kept for the page's life: the runtime fills in `userId`, `client` and
 * `sync` at sign-in and clears them at logout, so whoever holds it sees the current values.
 */
import type { PassageDB } from './db';
import type { PlatformClientLike } from './platform-like';

/** How a command reaches the sync engine (the runtime's, or a test's). */
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
  /** Online-only calls (coach approvals) go through this; null until the app sets its client. */
  client: PlatformClientLike | null;
  sync: SyncControl | null;
}

/** A device's context over `db`: signed out, the real clock and uuids, no client, no engine. */
export function createDataContext(parts: Pick<DataContext, 'db'> & Partial<DataContext>): DataContext {
  return {
    userId: null,
    now: () => Date.now(),
    newUuid: () => globalThis.crypto.randomUUID(),
    client: null,
    sync: null,
    ...parts,
  };
}

/** Tell the sync engine a local write committed (called only after the transaction, S1). */
export function notifyLocalWrite(ctx: DataContext): void {
  ctx.sync?.localWrite();
}
