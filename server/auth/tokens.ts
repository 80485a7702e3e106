/**
 * Access tokens: HS256 JWTs via jose. `sub` is the user id and `app_id` the app the token was
 * issued for; a token of another app is "not registered" here, never a user. Tokens issued since
 * issue #21 also name their session (`sid`, revocable server-side: logout, an administrator), when
 * the password / code / reset check behind it happened (`auth_time`: the device key needs a fresh
 * one) and, when known, the device (`did`: an administrator's revocation reaches it).
 */
import { SignJWT, jwtVerify } from 'jose';

// 12 hours: one facility shift; after that the coach signs in again (the app keeps working offline).
export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;

export interface TokenClaims {
  sub: string;
  app_id: string;
  iat: number;
  /** The account's token_version when the token was issued; a password change increments it. */
  ver: number;
  /** The session (auth_sessions.sid); absent on tokens issued before sessions existed. */
  sid?: string;
  /** Epoch seconds of the credential check that started the session. */
  auth_time?: number;
  /** The device the session was started for. */
  did?: string;
}

/** What a token issued for a session carries besides the user. */
export interface SessionClaims {
  sid: string;
  authTime: number;
  did?: string | null;
}

/** Clock difference tolerated between server processes (several may share one PostgreSQL). */
const IAT_SKEW_SECONDS = 60;

export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function issueToken(key: Uint8Array, userId: string, appId: string, now: Date, version = 0, session?: SessionClaims): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const extra = session ? { sid: session.sid, auth_time: session.authTime, ...(session.did ? { did: session.did } : {}) } : {};
  return new SignJWT({ app_id: appId, ver: version, ...extra })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
    .sign(key);
}

/**
 * The claims of a valid, unexpired token; null for anything else: bad signature, expired, junk, no
 * `exp` (it would never expire), no `iat` or one in the future (it would outlive a password change).
 */
export async function readToken(key: Uint8Array, token: string, now: Date): Promise<TokenClaims | null> {
  // 4 KB: our tokens are ~200 bytes; refuse to parse anything absurd.
  if (!token || token.length > 4096) return null;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.app_id !== 'string') return null;
    if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return null;
    if (payload.iat > now.getTime() / 1000 + IAT_SKEW_SECONDS) return null;
    if (payload.exp - payload.iat > TOKEN_LIFETIME_SECONDS) return null;
    const ver = payload.ver === undefined ? 0 : payload.ver;
    if (typeof ver !== 'number' || !Number.isSafeInteger(ver)) return null;
    const claims: TokenClaims = { sub: payload.sub, app_id: payload.app_id, iat: payload.iat, ver };
    return withSession(claims, payload) ? claims : null;
  } catch {
    return null;
  }
}

/** Adds sid / auth_time / did when present; false when one of them is malformed (a forged shape). */
function withSession(claims: TokenClaims, payload: Record<string, unknown>): boolean {
  const { sid, auth_time: authTime, did } = payload;
  if (sid !== undefined) {
    if (typeof sid !== 'string' || sid.length === 0 || sid.length > 64) return false;
    claims.sid = sid;
  }
  if (authTime !== undefined) {
    if (typeof authTime !== 'number' || !Number.isSafeInteger(authTime)) return false;
    claims.auth_time = authTime;
  }
  if (did !== undefined) {
    if (typeof did !== 'string' || did.length === 0 || did.length > 64) return false;
    claims.did = did;
  }
  return true;
}
