/**
 * The device lock (issues #14.2–3, #21) as the shell sees it. Personal fields on this tablet, and
 * the sign-in itself, are sealed with a data key that is in memory only while Passage is unlocked.
 * Every start asks for the PIN; only a fresh password sign-in on Passage's server opens the data
 * without it (with this device's server key). What acts on the device's database takes its data
 * context first; the PIN-reset flag and the Lock broadcast belong to the browser, not a database.
 */
import type { DataContext } from './context';
import { fetchDeviceKey, type DeviceKeyAnswer } from './online/device-key';
import { forgetRememberedQueries } from './queries/remembered';
import { otherUsersWithPendingOps, SESSION_KEY } from './session';
import { getStoredToken, onTokenChange, storeToken } from '../platform/token-store';
import { fromBase64 } from './vault/keys';
import { createPrfCredential, evaluatePrf, prfSupported } from './vault/webauthn-prf';
import {
  attachServerKey,
  createVault,
  DEFAULT_POLICY,
  ensureDeviceId,
  lockVault,
  MAX_ATTEMPTS,
  newDeviceId,
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
 * Where a start leads:
 * - 'unlocked': the key is in memory; the app may open.
 * - 'set-pin': the key is in memory, but the coach has no PIN on this device yet (first sign-in
 *   here, a forgotten or destroyed PIN after a fresh password sign-in): the app opens once one is chosen.
 * - 'locked': the PIN is needed. Every page load starts here (a new tab, a relaunch, a reload),
 *   online or not; only a fresh password sign-in on Passage's server opens the data without it.
 * - 'other-user': the data here belongs to another account whose changes are still waiting (S11);
 *   the shell shows the pending-changes gate and opens nothing.
 */
export type LockState = 'unlocked' | 'set-pin' | 'locked' | 'other-user';

/** A PIN reset was asked for (Forgot your PIN?): the next fresh sign-in sets a new one. */
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
 * The token in memory, sealed under the data key for the next start (issue #21.1). Written only
 * while unlocked; a lock empties memory and keeps the sealed copy.
 */
async function sealSession({ db }: DataContext, token: string | null = getStoredToken()): Promise<void> {
  if (!db.keys.unlocked || !token) return;
  await db.meta.put({ key: SESSION_KEY, value: { token } });
}

/** After the PIN opened the vault: the sign-in sealed at the last start, unless this load brought one. */
async function restoreSession(ctx: DataContext): Promise<void> {
  const { db } = ctx;
  if (getStoredToken()) return sealSession(ctx);
  const row = await db.meta.get(SESSION_KEY).catch(() => undefined);
  const token = (row?.value as { token?: unknown } | undefined)?.token;
  if (typeof token === 'string' && token) storeToken(token);
}

/** The sealed sign-in goes (logout, or a sign-in refused for good); the data stays. */
export async function forgetSession({ db }: DataContext): Promise<void> {
  await db.meta.delete(SESSION_KEY).catch(() => undefined);
}

/**
 * Every new token of this page (the code's exchange, a refreshed sign-in) is sealed into this
 * device's database at once when it is unlocked. The app calls it once at boot; returns the unsubscribe.
 */
export function sealNewSignIns(ctx: DataContext): () => void {
  return onTokenChange((token) => {
    if (token) void sealSession(ctx, token).catch((err: unknown) => console.warn('Could not keep the sign-in', err));
  });
}

/** The device id a sign-in of this page load was bound to, for a vault not made yet. */
let signInDeviceId: string | null = null;

/**
 * The device id to bind a sign-in's session to (issue #21.2): this vault's, or the one the vault
 * about to be made will take.
 */
export async function deviceIdForSignIn({ db }: DataContext): Promise<string> {
  const id = await ensureDeviceId(db).catch(() => null);
  if (id) return id;
  signInDeviceId ??= newDeviceId();
  return signInDeviceId;
}

/** Keys to try on this vault's server wrapping, newest last. */
const serverKeys = (answer: DeviceKeyAnswer) => [answer.previous, answer.key];

/**
 * Open this device's vault for `userId` at start-up (issue #21.3: every start asks for the PIN).
 * - `fresh`: this page load completed a password sign-in on Passage's server (a one-time code was
 *   exchanged). Only then is the server's key of this device asked for — the server itself checks
 *   the sign-in is fresh and the account approved — and it opens the vault (Forgot your PIN?, a
 *   destroyed PIN, an expired sign-in).
 * A token handed over in the address (plain platform) or restored from the vault opens nothing.
 */
export async function openDeviceLock(ctx: DataContext, { userId, fresh }: { userId: string; fresh: boolean }): Promise<LockState> {
  const { db } = ctx;
  let record = await readVault(db);

  if (record && record.user_id !== userId) {
    // Another account's data: its changes wait for their owner (S11), else it goes before ours comes.
    // Keys only (otherUsersWithPendingOps reads the index): the ops are sealed with the other account's key.
    if ((await otherUsersWithPendingOps(ctx, userId)).length > 0) return 'other-user';
    await wipeDevice(db);
    record = null;
  }

  if (!record) {
    // First sign-in on this device (or after an erase): a new key, sealed by this device's server key.
    const deviceId = signInDeviceId ?? newDeviceId();
    signInDeviceId = null;
    const server = fresh ? await fetchDeviceKey(ctx, deviceId) : null;
    const answer = server && 'key' in server ? server : null;
    await createVault(db, userId, answer?.policy ?? DEFAULT_POLICY, deviceId);
    if (answer) await attachServerKey(db, answer.key, answer.policy);
    await sealExistingRows(db);
    await sealSession(ctx);
    return 'set-pin';
  }

  if (db.keys.unlocked) {
    // Opened by the PIN on this page load (start-up runs again after it).
    await sealExistingRows(db);
    await sealSession(ctx);
    return !record.pin || pinResetAsked() ? 'set-pin' : 'unlocked';
  }

  if (fresh) {
    const deviceId = await ensureDeviceId(db);
    const server = deviceId ? await fetchDeviceKey(ctx, deviceId) : null;
    if (server && 'key' in server && (await unlockWithServerKey(db, serverKeys(server)))) {
      // Sealed again with the key of this release (it rotates), which also brings the current policy.
      await attachServerKey(db, server.key, server.policy);
      await sealExistingRows(db);
      await sealSession(ctx);
      return !record.pin || pinResetAsked() ? 'set-pin' : 'unlocked';
    }
    if (!record.pin && server && 'key' in server) {
      // No PIN opens this copy, and this account's server key does not either (it was never sealed
      // with one: a coach not yet approved): nothing can read it. Start over.
      await wipeDevice(db);
      return openDeviceLock(ctx, { userId, fresh });
    }
  }
  lockVault(db);
  return 'locked';
}

/** The authenticator's PRF output for a PIN wrapping that needs it; undefined when it does not answer. */
async function askAuthenticator(binding: { credential_id: string; salt: string }): Promise<Uint8Array | undefined> {
  try {
    return (await evaluatePrf(binding.credential_id, fromBase64(binding.salt))) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Try the PIN; on success the sealed sign-in is back in memory and start-up runs again. */
export async function unlockDevice(ctx: DataContext, pin: string): Promise<UnlockResult> {
  const { db } = ctx;
  const result = await unlockWithPin(db, pin, ctx.now(), { secondFactor: askAuthenticator });
  if (result.ok) {
    await sealExistingRows(db);
    await restoreSession(ctx);
  }
  return result;
}

/**
 * Whether this browser can add a platform authenticator (fingerprint, face, Windows Hello) as a
 * second factor of the PIN (issue #21.4). Known for sure only once a credential is made.
 */
export function secondFactorAvailable(): Promise<boolean> {
  return prfSupported();
}

/**
 * Choose this device's PIN. `withAuthenticator`: the key also needs this tablet's authenticator
 * (WebAuthn PRF), so a copy of the profile cannot be opened by guessing the PIN alone. Throws when
 * the authenticator was asked and gave no PRF (the coach cancelled, or it has none): nothing is saved.
 */
export async function chooseDevicePin({ db }: DataContext, pin: string, { withAuthenticator = false }: { withAuthenticator?: boolean } = {}): Promise<void> {
  let prf: Awaited<ReturnType<typeof createPrfCredential>> = null;
  if (withAuthenticator) {
    const owner = await readVault(db);
    prf = await createPrfCredential(owner?.device_id ?? owner?.user_id ?? 'passage', 'Passage on this tablet');
    if (!prf) throw new Error('This tablet’s authenticator cannot protect the PIN. Choose the PIN alone, or try again.');
  }
  await setPin(db, pin, prf ? { prf } : undefined);
  setPinResetAsked(false);
}

/** Other tabs of Passage on this device: the Lock button locks them too. */
const LOCK_CHANNEL = 'passage-device-lock';
const lockChannel: BroadcastChannel | null = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(LOCK_CHANNEL);

/**
 * Lock now (idle time, the coach's Lock button, logout): the key and every opened list leave
 * memory; the shell stops sync and then drops the sign-in (#21.1), so no request goes out until the
 * PIN is entered again. `everywhere`: every other tab of Passage on this device locks too. A tab
 * idle on its own does not lock a tab in use.
 */
export function lockDevice({ db }: DataContext, { everywhere = false }: { everywhere?: boolean } = {}): void {
  lockVault(db);
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

/** Whether the data key is in memory (the shell drops the sign-in once sync stopped after a lock). */
export function isDeviceUnlocked({ db }: DataContext): boolean {
  return db.keys.unlocked;
}

/** "Forgot your PIN?": the next fresh sign-in opens the data with the server's key and asks for a new PIN. */
export function askPinReset(): void {
  setPinResetAsked(true);
}

/** What waits to be sent, by kind of record, e.g. `[{ entity: 'Participant', count: 2 }]`. */
export interface PendingKind {
  entity: string;
  count: number;
}

export interface LockInfo {
  policy: VaultPolicy;
  failedAttempts: number;
  retryAt: number | null;
  /** Changes on this device not yet on the server. */
  pending: number;
  /** The same changes by kind of record (readable while locked: the queue's clear index). */
  pendingKinds: PendingKind[];
  /** Ten wrong PINs destroyed the PIN's wrapping: only a fresh password sign-in opens the data. */
  pinDestroyed: boolean;
  /**
   * Whose tablet this is (issue #23.9): the vault's owner as the coach directory names them —
   * staff name and e-mail, stored clear on purpose (vault/policy.ts), so the lock screen can say
   * it without opening anything; null when the directory does not hold them (not yet approved).
   */
  owner: { name: string; email: string } | null;
}

export async function deviceLockInfo({ db }: DataContext): Promise<LockInfo> {
  const record = await readVault(db);
  const keys = (await db.outbox.orderBy('[entity+record_id]').keys()) as unknown as [string, string][];
  const byEntity = new Map<string, number>();
  for (const [entity] of keys) byEntity.set(entity, (byEntity.get(entity) ?? 0) + 1);
  return {
    policy: record?.policy ?? DEFAULT_POLICY,
    failedAttempts: record?.failed_attempts ?? 0,
    retryAt: record?.retry_at ?? null,
    pending: keys.length,
    pendingKinds: [...byEntity].map(([entity, count]) => ({ entity, count })).sort((a, b) => b.count - a.count || a.entity.localeCompare(b.entity)),
    pinDestroyed: !!record?.pin_destroyed && !record.pin,
    owner: await vaultOwner(db, record?.user_id),
  };
}

async function vaultOwner(db: DataContext['db'], userId: string | undefined): Promise<LockInfo['owner']> {
  if (!userId) return null;
  // Only the directory's clear fields: the owner's own cached record (meta) is sealed.
  const entry = await db.users.get(userId).catch(() => undefined);
  if (!entry?.email) return null;
  return { name: entry.full_name?.trim() || entry.email, email: entry.email };
}
