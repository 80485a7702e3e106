/**
 * Sealing one record (issue #14.1): AES-256-GCM with a fresh random 96-bit IV per record, the IV
 * stored in front of the ciphertext and tag, behind a format byte, and the record's place (table,
 * primary key) as additional data (issue #21.5). Synchronous on purpose: an IndexedDB transaction
 * commits as soon as no request is pending, and WebCrypto's promises resolve in a later task, so a
 * middleware that awaited `crypto.subtle` inside a transaction would find it closed. The bytes are
 * standard AES-GCM (the unit test opens them with WebCrypto); the key work (Argon2id,
 * wrapping) runs outside transactions (keys.ts).
 */
import { unsafe } from '@noble/ciphers/aes.js';
import { GHASH } from '@noble/ciphers/_polyval.js';
import { equalBytes, u64Lengths } from '@noble/ciphers/utils.js';

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

/**
 * AES-GCM with what depends on the key alone worked out once per key instead of once per record:
 * the AES round keys and GHASH's multiplication table for H = AES_K(0¹²⁸). noble's `gcm()` derives
 * both on every call, which was most of a record's cost (a 200-byte record: 62 µs sealed that way,
 * 36 µs this way; the first sync seals every row it stores). The blocks are still noble's
 * (`unsafe.ctr32`, `GHASH`); this only keeps their key material between calls. The bytes are
 * standard AES-GCM, as before: NIST SP 800-38D with a 96-bit IV, J0 = IV ‖ 0³¹1, the payload
 * from inc32(J0), tag = GHASH_H(AAD, C) ⊕ AES_K(J0); tests open them with WebCrypto and the
 * other way round.
 */
class ReusableGhash extends GHASH {
  /** GHASH over AAD and C (each padded to 16 bytes) and their bit lengths, into `out`. */
  tag(aad: Uint8Array, data: Uint8Array, out: Uint8Array): Uint8Array {
    this.s0 = this.s1 = this.s2 = this.s3 = 0;
    this.finished = false;
    this.update(aad);
    this.update(data);
    // len(AAD) ‖ len(C) in bits, big-endian: noble's own block for this.
    this.update(u64Lengths(8 * data.length, 8 * aad.length, false));
    this.digestInto(out);
    return out;
  }
}

interface KeyMaterial {
  roundKeys: Uint32Array;
  ghash: ReusableGhash;
}

/** Per data key, by identity: KeyRing forgets a key here before it zeroes it (clear) or lets it go (set). */
const material = new WeakMap<Uint8Array, KeyMaterial>();

function materialOf(key: Uint8Array): KeyMaterial {
  let found = material.get(key);
  if (!found) {
    if (key.length !== KEY_BYTES) throw new Error(`A data key has ${KEY_BYTES} bytes, not ${key.length}`);
    const roundKeys = unsafe.expandKeyLE(key);
    const h = unsafe.encryptBlock(roundKeys, new Uint8Array(16));
    // The largest table (8-bit windows, 64 KiB of entries): made once per key, the fastest per block.
    found = { roundKeys, ghash: new ReusableGhash(h, 1 << 20) };
    h.fill(0);
    material.set(key, found);
  }
  return found;
}

/** Wipes what was worked out from `key` (its round keys and GHASH table) and forgets it: KeyRing calls it. */
export function forgetKey(key: Uint8Array): void {
  const found = material.get(key);
  if (!found) return;
  found.roundKeys.fill(0);
  found.ghash.destroy();
  material.delete(key);
}

/** u32 views need 4-byte alignment; a blob's ciphertext starts at byte 13. */
const aligned = (bytes: Uint8Array) => (bytes.byteOffset % 4 === 0 ? bytes : bytes.slice());

/** The counter block J0 = IV ‖ 0³¹1, and AES_K(J0), which masks the tag; the counter is left at inc32(J0). */
function start(roundKeys: Uint32Array, iv: Uint8Array): { counter: Uint8Array; mask: Uint8Array } {
  if (iv.length !== IV_BYTES) throw new Error(`An IV has ${IV_BYTES} bytes, not ${iv.length}`);
  const counter = new Uint8Array(16);
  counter.set(iv);
  counter[15] = 1;
  const mask = unsafe.ctr32(roundKeys, false, counter, new Uint8Array(16));
  return { counter, mask };
}

/** AES-GCM encryption: ciphertext ‖ 16-byte tag. */
function gcmEncrypt(key: Uint8Array, iv: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const { roundKeys, ghash } = materialOf(key);
  const { counter, mask } = start(roundKeys, iv);
  const ciphertext = unsafe.ctr32(roundKeys, false, counter, aligned(plaintext), new Uint8Array(plaintext.length));
  const tag = ghash.tag(aad, ciphertext, new Uint8Array(16));
  for (let i = 0; i < 16; i++) tag[i] ^= mask[i];
  const out = new Uint8Array(ciphertext.length + 16);
  out.set(ciphertext);
  out.set(tag, ciphertext.length);
  return out;
}

/** AES-GCM decryption of ciphertext ‖ tag; the tag is checked before anything is decrypted. */
function gcmDecrypt(key: Uint8Array, iv: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Uint8Array {
  if (sealed.length < 16) throw new Error('aes-gcm: invalid tag');
  const { roundKeys, ghash } = materialOf(key);
  const { counter, mask } = start(roundKeys, iv);
  const ciphertext = aligned(sealed.subarray(0, sealed.length - 16));
  const tag = ghash.tag(aad, ciphertext, new Uint8Array(16));
  for (let i = 0; i < 16; i++) tag[i] ^= mask[i];
  if (!equalBytes(tag, sealed.subarray(sealed.length - 16))) throw new Error('aes-gcm: invalid tag');
  return unsafe.ctr32(roundKeys, false, counter, ciphertext, new Uint8Array(ciphertext.length));
}

const NO_AAD = new Uint8Array(0);

export function seal(key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const sealed = gcmEncrypt(key, iv, aad, plaintext);
  const out = new Uint8Array(1 + IV_BYTES + sealed.length);
  out[0] = SEAL_V2;
  out.set(iv, 1);
  out.set(sealed, 1 + IV_BYTES);
  return out;
}

/** A seal of the format before issue #21 (no version byte, no AAD). Only tests and the benchmark make these. */
export function sealLegacy(key: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const sealed = gcmEncrypt(key, iv, NO_AAD, plaintext);
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv, 0);
  out.set(sealed, IV_BYTES);
  return out;
}

function openLegacy(key: Uint8Array, blob: Uint8Array): Uint8Array {
  return gcmDecrypt(key, blob.subarray(0, IV_BYTES), NO_AAD, blob.subarray(IV_BYTES));
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
      return gcmDecrypt(key, blob.subarray(1, 1 + IV_BYTES), aad, blob.subarray(1 + IV_BYTES));
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
