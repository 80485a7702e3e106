/**
 * Key wrapping (issues #14.2, #21.4). The data key is never stored as it is: only sealed (AES-GCM)
 * by a key derived from the coach's PIN, and by the per-device key the server hands a freshly
 * signed-in user. These calls run outside IndexedDB transactions, so asynchronous APIs are fine
 * here; sealing a record (cipher.ts) is synchronous.
 *
 * The PIN's key: Argon2id (hash-wasm; 64 MiB, one lane, ARGON2_PARAMS.iterations passes: ~0.6 s on
 * the development machine's CPU). A copy of the profile holds the wrapped key and its salt and the
 * GCM tag confirms a guess, so the cost of one derivation is the cost of one offline guess; Argon2id's
 * 64 MiB per guess is what keeps GPUs from running thousands of them in parallel, which they do
 * with PBKDF2 (test/bench/pin-guess-cost.ts measures both). Vaults wrapped before issue #21 carry no
 * `kdf` field: PBKDF2-SHA-256 with their `iterations` (600,000). They still open, and `needsRewrap`
 * tells the vault to wrap them again with Argon2id after the next successful unlock.
 *
 * Optional second factor: the output of a WebAuthn PRF credential (webauthn-prf.ts). When given,
 * the wrapping key is HKDF-SHA-256 over (Argon2id output || PRF output): the PIN alone no longer
 * opens the copy, nor does the authenticator alone.
 */
import { KEY_BYTES, randomBytes } from './cipher';

/** PBKDF2-SHA-256 iterations of the vaults wrapped before issue #21 (they still open). */
export const PBKDF2_ITERATIONS = 600_000;

export interface Argon2Params {
  kdf: 'argon2id';
  memory_kib: number;
  iterations: number;
  parallelism: number;
}

export interface Pbkdf2Params {
  kdf: 'pbkdf2';
  iterations: number;
}

export type PinKdfParams = Argon2Params | Pbkdf2Params;

/** What a new PIN wrapping uses. 64 MiB, one lane; the passes set the time (see the file comment). */
export const ARGON2_PARAMS: Readonly<Argon2Params> = Object.freeze({ kdf: 'argon2id', memory_kib: 65_536, iterations: 14, parallelism: 1 });

/**
 * The global a browser test sets (before the app starts) to ask an e2e build for a cheaper
 * derivation: `{ iterations, memory_kib }` (harness.ts lightPin).
 */
export const E2E_PIN_COST_GLOBAL = '__PASSAGE_E2E_PIN_COST__';

/**
 * What a new wrapping (and a re-wrap's target) uses: ARGON2_PARAMS. Only in a browser-test build
 * (`vite build --mode e2e`, into dist-e2e/, never dist/) a test whose subject is not the
 * derivation itself may set E2E_PIN_COST_GLOBAL to fewer passes over less memory, still Argon2id:
 * the shipped 14 passes over 64 MiB cost about 1 CPU-second per set or unlock, one pass over them
 * 0.15, one pass over 1 MiB 0.002 (hash-wasm in Node); the browser tests set or enter a PIN at
 * every sign-in and every page load, and are bound by CPU (issue #27.5). As Devise lowers bcrypt's
 * stretches in its test environment. Vite replaces `import.meta.env.MODE` with the build's mode, so
 * a production build compiles this to `return ARGON2_PARAMS` (test/e2e/build-modes.test.ts checks
 * dist/ holds no trace of the global).
 * Vite and vitest define `import.meta.env`; plain Node (tsx) does not, and no Node code calls this.
 */
export function newWrapParams(): Readonly<Argon2Params> {
  if (import.meta.env.MODE === 'e2e') {
    const cost = (globalThis as Record<string, unknown>)[E2E_PIN_COST_GLOBAL] as { iterations?: unknown; memory_kib?: unknown } | undefined;
    const { iterations, memory_kib } = cost ?? {};
    // Argon2 needs at least 8 KiB per lane.
    if (Number.isInteger(iterations) && Number.isInteger(memory_kib) && (iterations as number) >= 1 && (memory_kib as number) >= 8) {
      return { ...ARGON2_PARAMS, iterations: iterations as number, memory_kib: memory_kib as number };
    }
  }
  return ARGON2_PARAMS;
}

const SALT_BYTES = 16;
const IV_BYTES = 12;
const HASH_BYTES = 32;
const PRF_BYTES = 32;
const PRF_INFO = new TextEncoder().encode('passage/pin-wrap/argon2id+webauthn-prf/v1');

export interface WrappedKey {
  /** IV (12 bytes) followed by the sealed data key and its tag. */
  sealed: Uint8Array;
}

/** The WebAuthn PRF credential the wrapping also needs (its output is never stored). */
export interface PrfBinding {
  /** The credential's raw id, base64url (what `allowCredentials` takes back). */
  credential_id: string;
  /** The PRF input (`eval.first`), base64. */
  salt: string;
}

interface PinWrapBase extends WrappedKey {
  salt: Uint8Array;
  /** Present when the key also needs this credential's PRF output. */
  prf?: PrfBinding;
}

export interface Argon2WrappedKey extends PinWrapBase {
  kdf: 'argon2id';
  memory_kib: number;
  iterations: number;
  parallelism: number;
}

/** `kdf` absent: a vault wrapped before issue #21 (PBKDF2-SHA-256). */
export interface Pbkdf2WrappedKey extends PinWrapBase {
  kdf?: 'pbkdf2';
  iterations: number;
}

export type PinWrappedKey = Argon2WrappedKey | Pbkdf2WrappedKey;

/** The authenticator's answer for this wrapping, and what to store to ask for it again. */
export interface PrfFactor {
  /** The PRF output (32 bytes). */
  output: Uint8Array;
  /** base64url raw id of the credential. */
  credentialId: string;
  /** The PRF input it was evaluated with. */
  salt: Uint8Array;
}

export interface WrapPinOptions {
  prf?: PrfFactor;
  /** The derivation; newWrapParams() unless given (tests use small ones, or PBKDF2 to make an old record). */
  params?: PinKdfParams;
}

const subtle = () => globalThis.crypto.subtle;

/** Typed-array views over a shared buffer are refused by some WebCrypto builds: copy. */
const bytes = (b: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(b);

export function newDataKey(): Uint8Array {
  return randomBytes(KEY_BYTES);
}

/**
 * Argon2id in WebAssembly. Imported when first needed, so the wasm (~30 KB) is not in the first
 * page's JavaScript: the PIN screen awaits the derivation anyway. Needs `'wasm-unsafe-eval'` in
 * the CSP's script-src (server/http/security-headers.ts).
 */
async function argon2(pin: string, salt: Uint8Array, params: Argon2Params): Promise<Uint8Array> {
  const { argon2id } = await import('hash-wasm');
  return argon2id({
    password: pin,
    salt,
    memorySize: params.memory_kib,
    iterations: params.iterations,
    parallelism: params.parallelism,
    hashLength: HASH_BYTES,
    outputType: 'binary',
  });
}

async function pbkdf2(pin: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const material = await subtle().importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(await subtle().deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: bytes(salt), iterations }, material, HASH_BYTES * 8));
}

/** The PIN's derivation (the one an offline guess has to repeat), raw. Exported for the benchmark. */
export async function derivePinSecret(pin: string, salt: Uint8Array, params: PinKdfParams): Promise<Uint8Array> {
  return params.kdf === 'argon2id' ? argon2(pin, salt, params) : pbkdf2(pin, salt, params.iterations);
}

function paramsOf(wrapped: PinWrappedKey): PinKdfParams {
  if (wrapped.kdf === 'argon2id') {
    return { kdf: 'argon2id', memory_kib: wrapped.memory_kib, iterations: wrapped.iterations, parallelism: wrapped.parallelism };
  }
  return { kdf: 'pbkdf2', iterations: wrapped.iterations };
}

/** The AES-GCM key that wraps the data key: the PIN's secret, or HKDF over it and the PRF output. */
async function wrappingKey(secret: Uint8Array, salt: Uint8Array, prf: Uint8Array | undefined): Promise<CryptoKey> {
  try {
    if (!prf) return await importRaw(secret);
    if (prf.length !== PRF_BYTES) throw new Error(`A WebAuthn PRF output has ${PRF_BYTES} bytes, not ${prf.length}`);
    const ikm = new Uint8Array(secret.length + prf.length);
    ikm.set(secret, 0);
    ikm.set(prf, secret.length);
    const material = await subtle().importKey('raw', ikm, 'HKDF', false, ['deriveKey']);
    ikm.fill(0);
    return await subtle().deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: bytes(salt), info: bytes(PRF_INFO) },
      material,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    );
  } finally {
    secret.fill(0);
  }
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

/** Wrap the data key with the PIN (newWrapParams() unless `params` says otherwise), and the PRF output when given. */
export async function wrapWithPin(dataKey: Uint8Array, pin: string, options: WrapPinOptions = {}): Promise<PinWrappedKey> {
  const params = options.params ?? newWrapParams();
  const salt = randomBytes(SALT_BYTES);
  const prf = options.prf;
  const key = await wrappingKey(await derivePinSecret(pin, salt, params), salt, prf?.output);
  const sealed = await sealWith(key, dataKey);
  const binding: Pick<PinWrapBase, 'prf'> = prf ? { prf: { credential_id: prf.credentialId, salt: toBase64(prf.salt) } } : {};
  return { ...params, salt, sealed, ...binding };
}

/**
 * The data key, or null when the PIN (or the PRF output, for a wrapping that needs one) is wrong.
 * A wrapping with `prf` needs `prf`: without it, or with another credential's output, it is null.
 */
export async function unwrapWithPin(wrapped: PinWrappedKey, pin: string, prf?: Uint8Array): Promise<Uint8Array | null> {
  if (wrapped.prf && !prf) return null;
  if (prf && prf.length !== PRF_BYTES) return null;
  const key = await wrappingKey(await derivePinSecret(pin, wrapped.salt, paramsOf(wrapped)), wrapped.salt, prf);
  return openWith(key, wrapped.sealed);
}

/**
 * True when this wrapping is weaker than what a new one gets (`target`, newWrapParams() unless given):
 * PBKDF2 (every vault from before issue #21, `kdf` absent) or Argon2id with less memory or fewer
 * passes. The vault then wraps the data key again, with the PIN just entered, after a successful unlock.
 */
export function needsRewrap(wrapped: PinWrappedKey, target: Argon2Params = newWrapParams()): boolean {
  if (wrapped.kdf !== 'argon2id') return true;
  return wrapped.memory_kib < target.memory_kib || wrapped.iterations < target.iterations;
}

/**
 * A new wrapping of the data key with the current derivation (after `needsRewrap`), keeping the
 * previous wrapping's PRF credential: `prf` is the output the unlock just used (needed when
 * `previous.prf` is set; without it the wrapping would silently lose its second factor, so this throws).
 */
export async function rewrapWithPin(previous: PinWrappedKey, dataKey: Uint8Array, pin: string, prf?: Uint8Array, params?: PinKdfParams): Promise<PinWrappedKey> {
  if (previous.prf && !prf) throw new Error('This PIN wrapping also needs its authenticator: pass the PRF output the unlock used');
  const factor = previous.prf && prf ? { output: prf, credentialId: previous.prf.credential_id, salt: fromBase64(previous.prf.salt) } : undefined;
  return wrapWithPin(dataKey, pin, { prf: factor, params });
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

export function toBase64(data: Uint8Array): string {
  let raw = '';
  for (const b of data) raw += String.fromCharCode(b);
  return btoa(raw);
}

export function toBase64Url(data: Uint8Array): string {
  return toBase64(data).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return fromBase64(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
}
