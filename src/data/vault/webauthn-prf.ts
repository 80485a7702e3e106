import { randomBytes } from './cipher';
import { fromBase64Url, toBase64Url } from './keys';

/**
 * The optional second factor of the PIN wrapping (issue #21.4): a platform authenticator's WebAuthn
 * PRF output (the `prf` extension: an HMAC the authenticator computes over a salt with a secret that
 * never leaves it, after user verification). keys.ts mixes it into the wrapping key, so a copy of
 * the profile cannot be opened by guessing the PIN alone. Nothing here is stored: the caller keeps
 * the credential id and salt in the vault record (`PinWrappedKey.prf`), never the output.
 */

const PRF_SALT_BYTES = 32;
const TIMEOUT_MS = 60_000;

type PrfResults = { enabled?: boolean; results?: { first?: BufferSource } };

/** What PRF support the browser can promise before a credential exists (it is only known after create). */
export async function prfSupported(): Promise<boolean> {
  const PKC = (globalThis as { PublicKeyCredential?: typeof PublicKeyCredential }).PublicKeyCredential;
  if (!PKC || typeof navigator === 'undefined' || !navigator.credentials) return false;
  // WebAuthn needs a domain as its relying party: an address like 127.0.0.1 has none.
  if (typeof location !== 'undefined' && /^(\d+\.){3}\d+$|^\[|:/.test(location.hostname)) return false;
  try {
    const caps = (PKC as unknown as { getClientCapabilities?: () => Promise<Record<string, boolean>> }).getClientCapabilities;
    if (caps) {
      const known = await caps.call(PKC);
      if (known['extension:prf'] === false) return false;
    }
    return await PKC.isUserVerifyingPlatformAuthenticatorAvailable();
  } catch {
    return false;
  }
}

function prfOutput(credential: PublicKeyCredential): Uint8Array | null {
  const ext = credential.getClientExtensionResults() as { prf?: PrfResults };
  const first = ext.prf?.results?.first;
  if (!first) return null;
  const out = ArrayBuffer.isView(first) ? new Uint8Array(first.buffer, first.byteOffset, first.byteLength) : new Uint8Array(first);
  return out.length === 32 ? new Uint8Array(out) : null;
}

const buffer = (b: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(b);

/**
 * A new platform credential for this tablet and its PRF output over a fresh salt. The output comes
 * with the create on most authenticators; otherwise one get() with the same salt asks for it. null
 * when the authenticator has no PRF (the PIN alone then wraps the key); throws when the coach
 * cancels or the browser refuses (NotAllowedError), so the screen can say so.
 */
export async function createPrfCredential(
  userId: string,
  userName: string,
): Promise<{ credentialId: string; salt: Uint8Array; output: Uint8Array } | null> {
  const salt = randomBytes(PRF_SALT_BYTES);
  const created = (await navigator.credentials.create({
    publicKey: {
      rp: { name: 'Passage' },
      user: { id: buffer(new TextEncoder().encode(userId).slice(0, 64)), name: userName, displayName: userName },
      challenge: buffer(randomBytes(32)),
      pubKeyCredParams: [
        { type: 'public-key', alg: -7 },
        { type: 'public-key', alg: -257 },
      ],
      authenticatorSelection: { authenticatorAttachment: 'platform', residentKey: 'discouraged', requireResidentKey: false, userVerification: 'required' },
      attestation: 'none',
      timeout: TIMEOUT_MS,
      extensions: { prf: { eval: { first: buffer(salt) } } } as AuthenticationExtensionsClientInputs,
    },
  })) as PublicKeyCredential | null;
  if (!created) return null;
  const credentialId = toBase64Url(new Uint8Array(created.rawId));
  const ext = created.getClientExtensionResults() as { prf?: PrfResults };
  if (ext.prf?.enabled === false) return null;
  const output = prfOutput(created) ?? (await evaluatePrf(credentialId, salt));
  return output ? { credentialId, salt, output } : null;
}

/** The PRF output of this credential over `salt` (asks for user verification); null when none comes. */
export async function evaluatePrf(credentialId: string, salt: Uint8Array): Promise<Uint8Array | null> {
  const got = (await navigator.credentials.get({
    publicKey: {
      challenge: buffer(randomBytes(32)),
      allowCredentials: [{ type: 'public-key', id: buffer(fromBase64Url(credentialId)), transports: ['internal'] }],
      userVerification: 'required',
      timeout: TIMEOUT_MS,
      extensions: { prf: { eval: { first: buffer(salt) } } } as AuthenticationExtensionsClientInputs,
    },
  })) as PublicKeyCredential | null;
  return got ? prfOutput(got) : null;
}
