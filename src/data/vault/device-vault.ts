/**
 * The device's vault (issue #14.2–3): one data key per device and user, stored only wrapped — by
 * the PIN the coach set on this tablet and by the per-user key the server gives a signed-in user.
 * The record lives in meta (clear: it holds nothing readable without the PIN or the server).
 */
import type { PassageDB } from '../db';
import { PLAIN_ROWS_KEY } from '../db';
import {
  newWrapParams,
  needsRewrap,
  newDataKey,
  rewrapWithPin,
  unwrapWithPin,
  unwrapWithServerKey,
  wrapWithPin,
  wrapWithServerKey,
  type Argon2Params,
  type PinWrappedKey,
  type PrfBinding,
  type WrapPinOptions,
  type WrappedKey,
} from './keys';
import { SEAL_FORMAT, SEAL_FORMAT_KEY, SEALED_TABLES } from './policy';
import { pinProblem } from '../../domain/pin-rule';

/** What the administrator's policy sets for this device (told with its server key). */
export interface VaultPolicy {
  /** Shortest PIN the administrator allows (digits). */
  pin_min_length: number;
  /** Minutes without interaction before the app locks (≤ 30). */
  idle_lock_minutes: number;
}

export const DEFAULT_POLICY: VaultPolicy = { pin_min_length: 8, idle_lock_minutes: 15 };

export interface VaultRecord {
  user_id: string;
  /**
   * This device's id for this account (issue #21.2): the server keeps one key per device, released
   * only after a fresh password sign-in, and an administrator can revoke it. Random, made with the
   * vault; vaults from before it get one at their next fresh sign-in.
   */
  device_id?: string;
  pin: PinWrappedKey | null;
  server: WrappedKey | null;
  /** Wrong PINs in a row, counted before each try's key derivation (kept across reloads and tabs). */
  failed_attempts: number;
  /** Epoch ms before which no PIN is tried (after 5 wrong ones). */
  retry_at: number | null;
  policy: VaultPolicy;
  /**
   * Ten wrong PINs destroyed the PIN's wrapping (issue #21.7): the data and its waiting changes
   * stay, sealed, and open again only with a fresh password sign-in of the same account.
   */
  pin_destroyed?: boolean;
  /** The latest clock reading a PIN try saw: a clock set back does not shorten a wait (#21.8). */
  clock_floor?: number;
}

export const VAULT_KEY = 'vault';
/** Wrong PINs before the delay starts, and before the PIN's wrapping is destroyed (#21.7). */
export const FREE_ATTEMPTS = 5;
export const MAX_ATTEMPTS = 10;
const FIRST_DELAY_MS = 30_000;

export type UnlockResult =
  | { ok: true }
  | { ok: false; reason: 'wrong'; attemptsLeft: number; retryAt: number | null }
  | { ok: false; reason: 'wait'; retryAt: number }
  /** The 10th wrong PIN: the PIN no longer opens this copy; a fresh password sign-in does. */
  | { ok: false; reason: 'pin-destroyed' }
  /** The PIN's wrapping also needs this device's authenticator, which did not answer. */
  | { ok: false; reason: 'no-second-factor' }
  | { ok: false; reason: 'no-pin' };

type PinOptions = WrapPinOptions;

/**
 * The WebAuthn PRF output a PIN wrapping with a second factor needs (issue #21.4), asked of the
 * authenticator only when the wrapping has one; undefined when it cannot be had.
 */
export type SecondFactor = (binding: PrfBinding) => Promise<Uint8Array | undefined>;

export interface PinTryOptions {
  secondFactor?: SecondFactor;
  /** The derivation a re-wrap uses (newWrapParams() unless given: tests use small ones). */
  params?: Argon2Params;
}

export async function readVault(db: PassageDB): Promise<VaultRecord | null> {
  return ((await db.meta.get(VAULT_KEY))?.value as VaultRecord | undefined) ?? null;
}

async function writeVault(db: PassageDB, record: VaultRecord): Promise<void> {
  await db.meta.put({ key: VAULT_KEY, value: record });
}

/** The delay after `failed` wrong PINs in a row: none for the first 5, then 30 s doubling. */
export function retryDelayMs(failed: number): number {
  return failed < FREE_ATTEMPTS ? 0 : FIRST_DELAY_MS * 2 ** (failed - FREE_ATTEMPTS);
}

/** A random device id: 16 bytes, base64url (what the server's `device_id` takes). */
export function newDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A new data key for `userId`, in memory at once (first sign-in on this device). */
export async function createVault(db: PassageDB, userId: string, policy: VaultPolicy = DEFAULT_POLICY, deviceId: string = newDeviceId()): Promise<VaultRecord> {
  const record: VaultRecord = { user_id: userId, device_id: deviceId, pin: null, server: null, failed_attempts: 0, retry_at: null, policy };
  db.keys.set(newDataKey());
  await writeVault(db, record);
  // A new key has never sealed anything without its place: only bound seals open from now on.
  if (!(await db.meta.get(PLAIN_ROWS_KEY))) await db.meta.put({ key: SEAL_FORMAT_KEY, value: SEAL_FORMAT });
  return record;
}

/** This vault's device id, made (and kept) for a vault from before device ids. */
export async function ensureDeviceId(db: PassageDB): Promise<string | null> {
  const record = await readVault(db);
  if (!record) return null;
  if (record.device_id) return record.device_id;
  const device_id = newDeviceId();
  await writeVault(db, { ...record, device_id });
  return device_id;
}

function unlockedKey(db: PassageDB): Uint8Array {
  const key = db.keys.key();
  if (!key) throw new Error('The vault is locked');
  return key;
}

/** Seal the data key with the server's key for this device (recovery by a fresh password sign-in). */
export async function attachServerKey(db: PassageDB, serverKey: Uint8Array, policy?: VaultPolicy): Promise<void> {
  const record = await readVault(db);
  if (!record) throw new Error('No vault on this device');
  const server = await wrapWithServerKey(unlockedKey(db), serverKey);
  await writeVault(db, { ...record, server, policy: policy ?? record.policy });
}

export async function setPin(db: PassageDB, pin: string, options?: PinOptions): Promise<void> {
  const record = await readVault(db);
  if (!record) throw new Error('No vault on this device');
  const problem = pinProblem(pin, record.policy.pin_min_length);
  if (problem) throw new Error(problem);
  const wrapped = await wrapWithPin(unlockedKey(db), pin, options);
  await writeVault(db, { ...record, pin: wrapped, pin_destroyed: false, failed_attempts: 0, retry_at: null });
}

/**
 * One PIN try at a time on this device, across tabs (issue #21.8): a Web Lock where the browser has
 * them (every current one), else a queue in this page.
 */
let pinQueue: Promise<unknown> = Promise.resolve();
function oneTryAtATime<T>(run: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (locks?.request) return locks.request('passage-pin-try', { mode: 'exclusive' }, run) as Promise<T>;
  const next = pinQueue.then(run, run);
  pinQueue = next.catch(() => undefined);
  return next;
}

/**
 * Try a PIN. The try is counted (written) before the key derivation starts, under a lock shared by
 * every tab, so parallel tabs or a tab closed during the derivation gain nothing (#21.8). After 5
 * wrong PINs each try waits longer, measured from the latest clock reading any try saw (a clock set
 * back does not shorten it). The 10th wrong PIN destroys the PIN's wrapping (#21.7): the data and
 * the changes waiting here stay sealed until a fresh password sign-in of the same account opens
 * them with the server's key.
 */
export async function unlockWithPin(db: PassageDB, pin: string, now: number, options: PinTryOptions = {}): Promise<UnlockResult> {
  return oneTryAtATime(async () => {
    const record = await readVault(db);
    if (!record?.pin) return { ok: false, reason: record?.pin_destroyed ? 'pin-destroyed' : 'no-pin' };
    const at = Math.max(now, record.clock_floor ?? 0);
    if (record.retry_at && at < record.retry_at) return { ok: false, reason: 'wait', retryAt: record.retry_at };
    if (record.failed_attempts >= MAX_ATTEMPTS) {
      // The 10th try was counted but its answer never written (the tab closed during the derivation).
      await writeVault(db, { ...record, pin: null, pin_destroyed: true, retry_at: null, clock_floor: at });
      return { ok: false, reason: 'pin-destroyed' };
    }
    const failed = record.failed_attempts + 1;
    const delay = retryDelayMs(failed);
    const counted: VaultRecord = { ...record, failed_attempts: failed, retry_at: delay ? at + delay : null, clock_floor: at };
    await writeVault(db, counted);

    const prf = record.pin.prf ? await options.secondFactor?.(record.pin.prf) : undefined;
    if (record.pin.prf && !prf) {
      // The authenticator was not there (or the coach cancelled): this try proved nothing.
      await writeVault(db, record);
      return { ok: false, reason: 'no-second-factor' };
    }
    const key = await unwrapWithPin(record.pin, pin, prf);
    if (key) {
      db.keys.set(key);
      // An older, cheaper wrapping (PBKDF2, or fewer Argon2id passes) is replaced by the current one
      // now that the PIN is known.
      const target = options.params ?? newWrapParams();
      const pinWrap = needsRewrap(record.pin, target) ? await rewrapWithPin(record.pin, key, pin, prf, target) : record.pin;
      await writeVault(db, { ...counted, pin: pinWrap, failed_attempts: 0, retry_at: null });
      return { ok: true };
    }
    if (failed >= MAX_ATTEMPTS) {
      await writeVault(db, { ...counted, pin: null, pin_destroyed: true, retry_at: null });
      return { ok: false, reason: 'pin-destroyed' };
    }
    return { ok: false, reason: 'wrong', attemptsLeft: MAX_ATTEMPTS - failed, retryAt: counted.retry_at };
  });
}

/**
 * Unlock with the server's key of this device after a fresh password sign-in (the key rotates at
 * every release, so the one it replaced is tried too). False when neither opens this vault.
 * It also ends a wrong-PIN wait: a password and the server's key are two factors.
 */
export async function unlockWithServerKey(db: PassageDB, serverKeys: readonly (Uint8Array | null)[]): Promise<boolean> {
  const record = await readVault(db);
  if (!record?.server) return false;
  for (const serverKey of serverKeys) {
    if (!serverKey) continue;
    const key = await unwrapWithServerKey(record.server, serverKey);
    if (!key) continue;
    db.keys.set(key);
    await writeVault(db, { ...record, failed_attempts: 0, retry_at: null });
    return true;
  }
  return false;
}

/** Forget the key now: every start and every lock asks for the PIN again (#21.3). */
export function lockVault(db: PassageDB): void {
  db.keys.clear();
}

/**
 * Empty every table (the vault included), keeping the database open: another account's copy makes
 * room for the one signing in. An erase (logout, revocation) deletes the database itself instead
 * (data/session.ts clearLocalData).
 */
export async function wipeDevice(db: PassageDB): Promise<void> {
  db.keys.clear();
  await db.transaction('rw', db.tables, async () => {
    await Promise.all(db.tables.map((t) => t.clear()));
  });
}

/**
 * Seal the rows a version 2 device stored plain (db.ts version 3), once a key is in memory. Each
 * table is rewritten in pages through the middleware: a plain row reads as it is and is written
 * sealed; pending ops keep their sequence numbers and states.
 */
export async function sealExistingRows(db: PassageDB, pageSize = 500): Promise<number> {
  const plain = await db.meta.get(PLAIN_ROWS_KEY);
  const format = (await db.meta.get(SEAL_FORMAT_KEY))?.value;
  if (!plain && format === SEAL_FORMAT) return 0;
  unlockedKey(db);
  let rewritten = 0;
  for (const name of SEALED_TABLES) {
    const table = db.table(name);
    const keys = await table.toCollection().primaryKeys();
    for (let i = 0; i < keys.length; i += pageSize) {
      await db.transaction('rw', table, async () => {
        const rows = (await table.bulkGet(keys.slice(i, i + pageSize))).filter((r) => r !== undefined);
        await table.bulkPut(rows);
        rewritten += rows.length;
      });
    }
  }
  // Every row now carries its place (issue #21.5): from here on a seal without one is refused.
  await db.transaction('rw', db.meta, async () => {
    await db.meta.delete(PLAIN_ROWS_KEY);
    await db.meta.put({ key: SEAL_FORMAT_KEY, value: SEAL_FORMAT });
  });
  return rewritten;
}
