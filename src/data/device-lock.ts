import { dataContext } from './context';
import { fetchDeviceKey } from './online/device-key';
import { forgetRememberedQueries } from './queries/remembered';
import { otherUsersWithPendingOps } from './session';
import {
  attachServerKey,
  createVault,
  DEFAULT_POLICY,
  lockVault,
  MAX_ATTEMPTS,
  readVault,
  sealExistingRows,
  setPin,
  unlockWithPin,
  unlockWithServerKey,
  wipeDevice,
  type UnlockResult,
  type VaultPolicy,
} from './vault/device-vault';

export type { UnlockResult, VaultPolicy };
export { MAX_ATTEMPTS };

/**
 * The device lock (issue #14.2–3) as the shell sees it. Personal fields on this tablet are sealed
 * with a data key that is in memory only while Passage is unlocked:
 * - 'unlocked': the key is in memory; the app may open.
 * - 'set-pin': the key is in memory, but the coach has no PIN on this device yet (first sign-in
 *   here, a forgotten PIN after an online sign-in): the app opens once one is chosen.
 * - 'locked': the PIN is needed: a start without a connection, or while the lock screen was up
 *   (idle time, the Lock button, a wrong PIN) — a reload does not get round it.
 * - 'other-user': the data here belongs to another account whose changes are still waiting (S11);
 *   the shell shows the pending-changes gate and opens nothing.
 */
export type LockState = 'unlocked' | 'set-pin' | 'locked' | 'other-user';

/** A PIN reset was asked for (Forgot your PIN?): the next online sign-in sets a new one. */
const PIN_RESET_FLAG = 'passage_pin_reset';

function pinResetAsked(): boolean {
  try {
    return globalThis.localStorage?.getItem(PIN_RESET_FLAG) === '1';
  } catch {
    return false;
  }
}

function setPinResetAsked(value: boolean): void {
  try {
    if (value) globalThis.localStorage?.setItem(PIN_RESET_FLAG, '1');
    else globalThis.localStorage?.removeItem(PIN_RESET_FLAG);
  } catch {
    // Private mode: the coach sets the PIN again from the lock screen's recovery instead.
  }
}

/**
 * Open this device's vault for `userId` at start-up.
 * - `online`: the server answered (me() succeeded) for a signed-in user; its per-user key is
 *   fetched, and opens the vault unless the lock screen was left up (`locked`).
 * - `signedInNow`: this page load carries a token from an interactive sign-in (the URL's
 *   access_token): the server's key opens the vault even then (Forgot your PIN?).
 * Without a connection the PIN is always needed.
 */
export async function openDeviceLock({ userId, online, signedInNow }: { userId: string; online: boolean; signedInNow: boolean }): Promise<LockState> {
  const { db } = dataContext();
  const server = online ? await fetchDeviceKey() : null;
  let record = await readVault(db);

  if (record && record.user_id !== userId) {
    // Another account's data: its changes wait for their owner (S11), else it goes before ours comes.
    // Keys only (otherUsersWithPendingOps reads the index): the ops are sealed with the other account's key.
    if ((await otherUsersWithPendingOps(userId)).length > 0) return 'other-user';
    await wipeDevice(db);
    record = null;
  }

  if (!record) {
    // First sign-in on this device (or after an erase): a new key, sealed by the server's at once.
    await createVault(db, userId, server?.policy ?? DEFAULT_POLICY);
    if (server) await attachServerKey(db, server.key, server.policy);
    await sealExistingRows(db);
    return 'set-pin';
  }

  if (!db.keys.unlocked && server && (signedInNow || !record.locked)) await unlockWithServerKey(db, server.key);
  if (db.keys.unlocked) {
    // Sealed again with the server's key of this start, which also brings the current policy.
    if (server) await attachServerKey(db, server.key, server.policy);
    await sealExistingRows(db);
    if (!record.pin || pinResetAsked()) return 'set-pin';
    return 'unlocked';
  }
  if (!record.pin) {
    // Made on another start that never got to choose a PIN, and the server cannot open it now.
    // Nothing here can be read without a PIN or the server: start over when the server is here.
    if (!server) return 'locked';
    await wipeDevice(db);
    return openDeviceLock({ userId, online, signedInNow });
  }
  pendingServerKey = server;
  await lockVault(db);
  return 'locked';
}

/** The server's key of this start, kept until the PIN opens the vault so it can seal the key too. */
let pendingServerKey: Awaited<ReturnType<typeof fetchDeviceKey>> = null;

export async function unlockDevice(pin: string): Promise<UnlockResult> {
  const { db } = dataContext();
  const result = await unlockWithPin(db, pin, dataContext().now());
  if (result.ok) {
    const server = pendingServerKey;
    pendingServerKey = null;
    if (server) await attachServerKey(db, server.key, server.policy);
    await sealExistingRows(db);
  }
  if (!result.ok && result.reason === 'wiped') forgetRememberedQueries();
  return result;
}

export async function chooseDevicePin(pin: string): Promise<void> {
  await setPin(dataContext().db, pin);
  setPinResetAsked(false);
}

/** Other tabs of Passage on this device: the Lock button locks them too. */
const LOCK_CHANNEL = 'passage-device-lock';
const lockChannel: BroadcastChannel | null = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(LOCK_CHANNEL);

/**
 * Lock now (idle time, the coach's Lock button, logout): the key and every decrypted list leave
 * memory. `everywhere`: every other tab of Passage on this device locks too (the Lock button: a
 * tab left open behind must not stay open). A tab idle on its own does not lock a tab in use.
 */
export function lockDevice({ everywhere = false }: { everywhere?: boolean } = {}): void {
  const { db } = dataContext();
  void lockVault(db).catch((err: unknown) => console.error('Could not record the lock', err));
  forgetRememberedQueries();
  if (everywhere) lockChannel?.postMessage('lock');
}

/** Another tab pressed Lock: `listener` should lock this one (with lockDevice(), not everywhere). */
export function onLockedElsewhere(listener: () => void): () => void {
  if (!lockChannel) return () => undefined;
  const handler = (e: MessageEvent) => {
    if (e.data === 'lock') listener();
  };
  lockChannel.addEventListener('message', handler);
  return () => lockChannel.removeEventListener('message', handler);
}

export function isDeviceUnlocked(): boolean {
  return dataContext().db.keys.unlocked;
}

/** Listen for lock and unlock (the key ring changes). */
export function subscribeDeviceLock(listener: () => void): () => void {
  return dataContext().db.keys.subscribe(listener);
}

/** "Forgot your PIN?": the next online sign-in opens the data with the server's key and asks for a new PIN. */
export function askPinReset(): void {
  setPinResetAsked(true);
}

export interface LockInfo {
  policy: VaultPolicy;
  failedAttempts: number;
  retryAt: number | null;
  /** Changes on this device not yet on the server (what an erase would lose). */
  pending: number;
}

export async function deviceLockInfo(): Promise<LockInfo> {
  const { db } = dataContext();
  const record = await readVault(db);
  return {
    policy: record?.policy ?? DEFAULT_POLICY,
    failedAttempts: record?.failed_attempts ?? 0,
    retryAt: record?.retry_at ?? null,
    pending: await db.outbox.count(),
  };
}
