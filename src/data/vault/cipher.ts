import { gcm } from '@noble/ciphers/aes.js';

/**
 * Record encryption (issue #14.1): AES-256-GCM with a fresh random 96-bit IV per record, the IV
 * stored in front of the ciphertext and tag. Synchronous on purpose: an IndexedDB transaction
 * commits as soon as no request is pending, and WebCrypto's promises resolve in a later task, so a
 * middleware that awaited `crypto.subtle` inside a transaction would find it closed. The bytes are
 * standard AES-GCM (the unit test opens them with WebCrypto); WebCrypto does the key work (PBKDF2,
 * wrapping) outside transactions (keys.ts).
 */
export const IV_BYTES = 12;
export const KEY_BYTES = 32;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

export function seal(key: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const sealed = gcm(key, iv).encrypt(plaintext);
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv, 0);
  out.set(sealed, IV_BYTES);
  return out;
}

/** Throws when the key is wrong or a byte was changed (GCM's tag). */
export function open(key: Uint8Array, blob: Uint8Array): Uint8Array {
  return gcm(key, blob.subarray(0, IV_BYTES)).decrypt(blob.subarray(IV_BYTES));
}

export function sealJson(key: Uint8Array, value: unknown): Uint8Array {
  return seal(key, encoder.encode(JSON.stringify(value)));
}

export function openJson<T = unknown>(key: Uint8Array, blob: Uint8Array): T {
  return JSON.parse(decoder.decode(open(key, blob))) as T;
}
