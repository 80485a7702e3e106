/**
 * Access tokens: HS256 JWTs via jose. `sub` is the user id and `app_id` the app the token was
 * issued for; a token of another app is "not registered" here, never a user.
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
}

/** Clock difference tolerated between server processes (several may share one PostgreSQL). */
const IAT_SKEW_SECONDS = 60;

export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function issueToken(key: Uint8Array, userId: string, appId: string, now: Date, version = 0): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ app_id: appId, ver: version })
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
    return { sub: payload.sub, app_id: payload.app_id, iat: payload.iat, ver };
  } catch {
    return null;
  }
}
