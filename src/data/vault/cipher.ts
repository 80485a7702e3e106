/**
 * Sealing one record (issue #14.1): AES-256-GCM with a fresh random 96-bit IV per record, the IV
 * stored in front of the ciphertext and tag, behind a format byte, and the record's place (table,
 * primary key) as additional data (issue #21.5). Synchronous on purpose: an IndexedDB transaction
 * commits as soon as no request is pending, and WebCrypto's promises resolve in a later task, so a
 * middleware that awaited `crypto.subtle` inside a transaction would find it closed. The bytes are
 * standard AES-GCM (the unit test opens them with WebCrypto); the key work (Argon2id,
 * wrapping) runs outside transactions (keys.ts).
 */
import { gcm } from '@noble/ciphers/aes.js';

/** AES-GCM's 96-bit IV, and the 256-bit data key. */
export const IV_BYTES = 12;
export const KEY_BYTES = 32;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

/**
 * Seal formats. Version 2 (issue #21.5) binds each seal to its place with additional data (AAD:
 * see `placeOf`), and starts with this byte: [0x02][IV][ciphertext + tag]. Seals written before
 * it are [IV][ciphertext + tag] without AAD (the "legacy" format): they still open, where the
 * caller allows it, and are written as version 2 the next time their row is written.
 */
export const SEAL_V2 = 0x02;

export function seal(key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const sealed = gcm(key, iv, aad).encrypt(plaintext);
  const out = new Uint8Array(1 + IV_BYTES + sealed.length);
  out[0] = SEAL_V2;
  out.set(iv, 1);
  out.set(sealed, 1 + IV_BYTES);
  return out;
}

/** A seal of the format before issue #21 (no version byte, no AAD). Only tests and the benchmark make these. */
export function sealLegacy(key: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const sealed = gcm(key, iv).encrypt(plaintext);
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv, 0);
  out.set(sealed, IV_BYTES);
  return out;
}

function openLegacy(key: Uint8Array, blob: Uint8Array): Uint8Array {
  return gcm(key, blob.subarray(0, IV_BYTES)).decrypt(blob.subarray(IV_BYTES));
}

export interface OpenOptions {
  /** Whether a seal without AAD (written before issue #21) may open. */
  legacy?: boolean;
}

/**
 * Throws when the key is wrong, a byte was changed or the seal belongs to another place (GCM's
 * tag). A version 2 seal opens only with the AAD it was sealed with. A blob without the version
 * byte is a legacy seal; one that starts with it but does not open as version 2 may still be a
 * legacy seal whose random IV happened to start with that byte (1 in 256): tried as such too.
 */
export function open(key: Uint8Array, blob: Uint8Array, aad: Uint8Array, options: OpenOptions = {}): Uint8Array {
  const legacy = options.legacy ?? true;
  if (blob[0] === SEAL_V2) {
    try {
      return gcm(key, blob.subarray(1, 1 + IV_BYTES), aad).decrypt(blob.subarray(1 + IV_BYTES));
    } catch (error) {
      if (!legacy) throw error;
      try {
        return openLegacy(key, blob);
      } catch {
        throw error;
      }
    }
  }
  if (!legacy) throw new Error('A seal without its place (written before issue #21) is not accepted here');
  return openLegacy(key, blob);
}

/** True when the blob is in the current format (it may still be a legacy seal, 1 in 256: see `open`). */
export function isCurrentSeal(blob: Uint8Array): boolean {
  return blob[0] === SEAL_V2;
}

/**
 * The AAD of a sealed value: where it belongs. UTF-8 of JSON [table, String(primary key), version];
 * `SEAL_SCHEMA_VERSION` is the version of this binding (not Dexie's schema version, which may grow
 * without any seal changing).
 */
export const SEAL_SCHEMA_VERSION = 2;

export function placeOf(table: string, primaryKey: unknown): Uint8Array {
  return encoder.encode(JSON.stringify([table, String(primaryKey), SEAL_SCHEMA_VERSION]));
}

export function sealJson(key: Uint8Array, value: unknown, aad: Uint8Array): Uint8Array {
  return seal(key, encoder.encode(JSON.stringify(value)), aad);
}

export function openJson<T = unknown>(key: Uint8Array, blob: Uint8Array, aad: Uint8Array, options?: OpenOptions): T {
  return JSON.parse(decoder.decode(open(key, blob, aad, options))) as T;
}
