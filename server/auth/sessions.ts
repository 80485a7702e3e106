/**
 * Sessions and one-time sign-in codes (issue #21), what a checked credential turns into.
 * A check of a credential (password, OTP, reset token; auth-service.ts) yields a Grant; a Grant
 * becomes either a session and its token (`startSession`, the JSON API) or a one-time code for the
 * /login page's redirect (`issueCode`), which the app trades for the token by POST (`exchange`), so
 * no token ever travels in a URL. Also the device-id and PKCE formats the routes check, and the
 * rotation of a user's device keys after a password change or reset (`rotateDeviceKeys`).
 * Every failure is an HttpError; nothing here knows about HTTP requests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { HttpError } from '../errors';
import type { EntityRecord, Store } from '../store/types';
import type { AuthState } from './accounts';
import { deviceKek, newDeviceKey, unwrapDeviceKey, wrapDeviceKey } from './device-keys';
import { hashSecret, sameHash, SIGN_IN_CODE_LIFETIME_MS } from './secrets';
import { issueToken } from './tokens';

export interface SessionDeps {
  store: Store;
  appId: string;
  jwtKey: Uint8Array;
  /** Keys the one-time-secret hashes; the device-key KEK is derived from it. */
  secret: string;
  now: () => Date;
}

export interface SignedIn {
  access_token: string;
  user: EntityRecord;
}

/** A credential just checked: whose, the account's token_version, and when (epoch seconds). */
export interface Grant {
  user: EntityRecord;
  version: number;
  authTime: number;
}

/** Device ids the tablet makes (random, base64url-ish): anything else is a 400. */
export const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;
/** PKCE (RFC 7636): S256 challenges are base64url SHA-256, verifiers 43–128 unreserved characters. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function badDeviceId(): HttpError {
  return new HttpError(400, 'BAD_REQUEST', 'device_id must be 16–64 characters of A–Z, a–z, 0–9, _ and -');
}

/** An optional device_id parameter: null when absent, a 400 when malformed. */
export function optionalDeviceId(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !DEVICE_ID.test(value)) throw badDeviceId();
  return value;
}

const invalidGrant = () => new HttpError(400, 'INVALID_GRANT', 'This sign-in link has expired. Please sign in again.');

export function createSessionService(deps: SessionDeps) {
  const { store, appId: app } = deps;
  const kek = deviceKek(deps.secret);

  /** A new session (auth_sessions) and its token, naming the device when the client said which. */
  async function startSession(grant: Grant, deviceId?: unknown): Promise<SignedIn> {
    const did = optionalDeviceId(deviceId);
    const sid = randomBytes(16).toString('base64url');
    await store.createSession(app, { sid, user_id: grant.user.id, device_id: did, auth_time: grant.authTime });
    return {
      access_token: await issueToken(deps.jwtKey, grant.user.id, app, deps.now(), grant.version, { sid, authTime: grant.authTime, did }),
      user: grant.user,
    };
  }

  return {
    startSession,

    /**
     * A one-time code for the /login page's redirect: 32 random bytes, stored as a keyed hash, 60 s,
     * single use, bound to the PKCE challenge when the app sent one.
     */
    async issueCode(grant: Grant, challenge: string | null): Promise<string> {
      const code = randomBytes(32).toString('base64url');
      await store.putSignInCode(app, {
        code_hash: hashSecret(deps.secret, 'sign-in-code', code),
        user_id: grant.user.id,
        challenge,
        auth_time: grant.authTime,
        token_version: grant.version,
        expires_date: new Date(deps.now().getTime() + SIGN_IN_CODE_LIFETIME_MS).toISOString(),
      });
      return code;
    },

    /**
     * The token for a one-time code. The code is spent by the look-up itself, so a wrong verifier
     * burns it too and parallel exchanges get one token between them.
     */
    async exchange(body: { code?: unknown; code_verifier?: unknown; device_id?: unknown }): Promise<SignedIn> {
      optionalDeviceId(body.device_id); // before the code is spent
      if (typeof body.code !== 'string' || body.code.length === 0 || body.code.length > 128) throw invalidGrant();
      const code = await store.takeSignInCode(app, hashSecret(deps.secret, 'sign-in-code', body.code));
      if (!code || new Date(code.expires_date) <= deps.now()) throw invalidGrant();
      if (code.challenge !== null && !verifierMatches(body.code_verifier, code.challenge)) throw invalidGrant();
      const user = await store.get(app, 'User', code.user_id);
      const auth = typeof user?.email === 'string' ? ((await store.getAuth(app, user.email)) as AuthState | null) : null;
      // A password change in the last minute outranks a code issued before it.
      if (!user || user.disabled === true || !auth || (auth.token_version ?? 0) !== code.token_version) throw invalidGrant();
      return startSession({ user, version: code.token_version, authTime: code.auth_time }, body.device_id);
    },

    /**
     * After a password change or reset: every device of the user gets a new key; the one it last
     * received stays as `previous` (its vault is still wrapped with it) until its next release.
     */
    async rotateDeviceKeys(userId: string): Promise<void> {
      await store.rotateUserDeviceKeys(app, userId, (device) => {
        const place = { app, userId, deviceId: device.device_id };
        unwrapDeviceKey(kek, place, device.key_wrapped); // a row that does not open here is a fault, not a key
        return {
          key_wrapped: wrapDeviceKey(kek, place, newDeviceKey()),
          key_released: false,
          previous_wrapped: device.key_released ? device.key_wrapped : device.previous_wrapped,
        };
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

/** base64url(SHA-256(verifier)) equals the challenge (S256, RFC 7636 4.6), compared in constant time. */
function verifierMatches(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string' || !CODE_VERIFIER.test(verifier)) return false;
  return sameHash(challenge, createHash('sha256').update(verifier).digest('base64url'));
}
