import type { PassageDB } from '../db';
import { PLAIN_ROWS_KEY } from '../db';
import { newDataKey, unwrapWithPin, unwrapWithServerKey, wrapWithPin, wrapWithServerKey, PBKDF2_ITERATIONS, type PinWrappedKey, type WrappedKey } from './keys';
import { ENCRYPTED_TABLES } from './policy';

/**
 * The device's vault (issue #14.2–3): one data key per device and user, stored only wrapped — by
 * the PIN the coach set on this tablet and by the per-user key the server gives a signed-in user.
 * The record lives in meta (clear: it holds nothing readable without the PIN or the server).
 */
export interface VaultPolicy {
  /** Shortest PIN the administrator allows (digits). */
  pin_min_length: number;
  /** Minutes without interaction before the app locks (≤ 30). */
  idle_lock_minutes: number;
}

export const DEFAULT_POLICY: VaultPolicy = { pin_min_length: 6, idle_lock_minutes: 15 };

export interface VaultRecord {
  user_id: string;
  pin: PinWrappedKey | null;
  server: WrappedKey | null;
  /** Wrong PINs in a row (kept across reloads: a restart does not reset the count). */
  failed_attempts: number;
  /** Epoch ms before which no PIN is tried (after 5 wrong ones). */
  retry_at: number | null;
  policy: VaultPolicy;
  /**
   * The lock screen was shown (idle time, the Lock button, an offline start, a wrong PIN) and not
   * passed yet: only the PIN or an interactive sign-in opens the vault, so reloading the page
   * online does not get round the lock.
   */
  locked?: boolean;
}

export const VAULT_KEY = 'vault';
/** Wrong PINs before the delay starts, and before the device's copy is erased (AC-7). */
export const FREE_ATTEMPTS = 5;
export const MAX_ATTEMPTS = 10;
const FIRST_DELAY_MS = 30_000;

export type UnlockResult =
  | { ok: true }
  | { ok: false; reason: 'wrong'; attemptsLeft: number; retryAt: number | null }
  | { ok: false; reason: 'wait'; retryAt: number }
  | { ok: false; reason: 'wiped' }
  | { ok: false; reason: 'no-pin' };

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

export function validPin(pin: string, policy: VaultPolicy): boolean {
  return /^\d+$/.test(pin) && pin.length >= policy.pin_min_length && pin.length <= 12;
}

/** A new data key for `userId`, in memory at once (first sign-in on this device). */
export async function createVault(db: PassageDB, userId: string, policy: VaultPolicy = DEFAULT_POLICY): Promise<VaultRecord> {
  const record: VaultRecord = { user_id: userId, pin: null, server: null, failed_attempts: 0, retry_at: null, policy };
  db.keys.set(newDataKey());
  await writeVault(db, record);
  return record;
}

function unlockedKey(db: PassageDB): Uint8Array {
  const key = db.keys.key();
  if (!key) throw new Error('The vault is locked');
  return key;
}

/** Seal the data key with the server's key for this user (recovery by an online sign-in). */
export async function attachServerKey(db: PassageDB, serverKey: Uint8Array, policy?: VaultPolicy): Promise<void> {
  const record = await readVault(db);
  if (!record) throw new Error('No vault on this device');
  const server = await wrapWithServerKey(unlockedKey(db), serverKey);
  await writeVault(db, { ...record, server, policy: policy ?? record.policy });
}

export async function setPin(db: PassageDB, pin: string, iterations = PBKDF2_ITERATIONS): Promise<void> {
  const record = await readVault(db);
  if (!record) throw new Error('No vault on this device');
  if (!validPin(pin, record.policy)) throw new Error(`The PIN must be ${record.policy.pin_min_length} to 12 digits`);
  const wrapped = await wrapWithPin(unlockedKey(db), pin, iterations);
  await writeVault(db, { ...record, pin: wrapped, failed_attempts: 0, retry_at: null });
}

/**
 * Try a PIN. Wrong PINs count across reloads; after 5 each try waits longer; the 10th erases
 * this device's copy (the screen warns before it, with the number of unsent changes).
 */
export async function unlockWithPin(db: PassageDB, pin: string, now: number): Promise<UnlockResult> {
  const record = await readVault(db);
  if (!record?.pin) return { ok: false, reason: 'no-pin' };
  if (record.retry_at && now < record.retry_at) return { ok: false, reason: 'wait', retryAt: record.retry_at };
  const key = await unwrapWithPin(record.pin, pin);
  if (key) {
    db.keys.set(key);
    if (record.failed_attempts || record.retry_at || record.locked) await writeVault(db, { ...record, failed_attempts: 0, retry_at: null, locked: false });
    return { ok: true };
  }
  const failed = record.failed_attempts + 1;
  if (failed >= MAX_ATTEMPTS) {
    await wipeDevice(db);
    return { ok: false, reason: 'wiped' };
  }
  const delay = retryDelayMs(failed);
  const retryAt = delay ? now + delay : null;
  await writeVault(db, { ...record, failed_attempts: failed, retry_at: retryAt, locked: true });
  return { ok: false, reason: 'wrong', attemptsLeft: MAX_ATTEMPTS - failed, retryAt };
}

/** Unlock with the server's key after an online sign-in; false when this vault was not sealed with it. */
export async function unlockWithServerKey(db: PassageDB, serverKey: Uint8Array): Promise<boolean> {
  const record = await readVault(db);
  if (!record?.server) return false;
  const key = await unwrapWithServerKey(record.server, serverKey);
  if (!key) return false;
  db.keys.set(key);
  if (record.failed_attempts || record.retry_at || record.locked) await writeVault(db, { ...record, failed_attempts: 0, retry_at: null, locked: false });
  return true;
}

/** Forget the key now, and remember that the lock screen has to be passed (see `locked`). */
export async function lockVault(db: PassageDB): Promise<void> {
  db.keys.clear();
  const record = await readVault(db);
  if (record && !record.locked) await writeVault(db, { ...record, locked: true });
}

/** Erase everything this device holds (the vault included): only an online sign-in gets back in. */
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
  if (!(await db.meta.get(PLAIN_ROWS_KEY))) return 0;
  unlockedKey(db);
  let rewritten = 0;
  for (const name of ENCRYPTED_TABLES) {
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
  await db.meta.delete(PLAIN_ROWS_KEY);
  return rewritten;
}
