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
}

export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function issueToken(key: Uint8Array, userId: string, appId: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ app_id: appId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
    .sign(key);
}

/** The claims of a valid, unexpired token; null for anything else (bad signature, expired, junk). */
export async function readToken(key: Uint8Array, token: string, now: Date): Promise<TokenClaims | null> {
  // 4 KB: our tokens are ~200 bytes; refuse to parse anything absurd.
  if (!token || token.length > 4096) return null;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.app_id !== 'string') return null;
    return { sub: payload.sub, app_id: payload.app_id, iat: payload.iat ?? 0 };
  } catch {
    return null;
  }
}
