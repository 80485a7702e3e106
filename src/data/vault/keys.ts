import { KEY_BYTES, randomBytes } from './cipher';

/**
 * Key wrapping with WebCrypto (issue #14.2). The data key is never stored as it is: only sealed
 * (AES-GCM) by a key derived from the coach's PIN (PBKDF2-SHA-256), and by the per-user key the
 * server hands a signed-in user. These calls run outside IndexedDB transactions, so WebCrypto's
 * asynchronous API is fine here; record encryption (cipher.ts) is synchronous.
 */
export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;

export interface WrappedKey {
  /** IV (12 bytes) followed by the sealed data key and its tag. */
  sealed: Uint8Array;
}

export interface PinWrappedKey extends WrappedKey {
  salt: Uint8Array;
  iterations: number;
}

const subtle = () => globalThis.crypto.subtle;

/** Typed-array views over a shared buffer are refused by some WebCrypto builds: copy. */
const bytes = (b: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(b);

export function newDataKey(): Uint8Array {
  return randomBytes(KEY_BYTES);
}

async function derivePinKey(pin: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: bytes(salt), iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

async function importRaw(key: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey('raw', bytes(key), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

async function sealWith(wrapping: CryptoKey, dataKey: Uint8Array): Promise<Uint8Array> {
  const iv = randomBytes(IV_BYTES);
  const sealed = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: bytes(iv) }, wrapping, bytes(dataKey)));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv, 0);
  out.set(sealed, IV_BYTES);
  return out;
}

/** null when the wrapping key is not the one that sealed it (a wrong PIN). */
async function openWith(wrapping: CryptoKey, sealed: Uint8Array): Promise<Uint8Array | null> {
  try {
    const iv = bytes(sealed.subarray(0, IV_BYTES));
    return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv }, wrapping, bytes(sealed.subarray(IV_BYTES))));
  } catch {
    return null;
  }
}

export async function wrapWithPin(dataKey: Uint8Array, pin: string, iterations = PBKDF2_ITERATIONS): Promise<PinWrappedKey> {
  const salt = randomBytes(SALT_BYTES);
  return { salt, iterations, sealed: await sealWith(await derivePinKey(pin, salt, iterations), dataKey) };
}

export async function unwrapWithPin(wrapped: PinWrappedKey, pin: string): Promise<Uint8Array | null> {
  return openWith(await derivePinKey(pin, wrapped.salt, wrapped.iterations), wrapped.sealed);
}

export async function wrapWithServerKey(dataKey: Uint8Array, serverKey: Uint8Array): Promise<WrappedKey> {
  return { sealed: await sealWith(await importRaw(serverKey), dataKey) };
}

export async function unwrapWithServerKey(wrapped: WrappedKey, serverKey: Uint8Array): Promise<Uint8Array | null> {
  return openWith(await importRaw(serverKey), wrapped.sealed);
}

export function fromBase64(text: string): Uint8Array {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
