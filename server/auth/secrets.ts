/**
 * One-time secrets (6-digit OTP codes, password-reset tokens, sign-in codes). Only a keyed hash is stored, so a
 * database leak does not hand out codes; compares are constant-time.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const OTP_LIFETIME_MS = 10 * 60 * 1000; // 10 minutes: long enough to switch to the mail app
export const OTP_MAX_TRIES = 5; // then the code is void and a new one must be requested
export const RESET_LIFETIME_MS = 30 * 60 * 1000; // 30 minutes
/** The /login page's one-time code (issue #21): the app trades it at once, right after the redirect. */
export const SIGN_IN_CODE_LIFETIME_MS = 60 * 1000;

export function newOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * A reset token names its account (base64url email) so it can be checked without an index on
 * token hashes; the 32 random bytes are what makes it unguessable.
 */
export function newResetToken(email: string): string {
  return `${Buffer.from(email).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
}

export function emailOfResetToken(token: unknown): string | null {
  if (typeof token !== 'string' || token.length > 1024) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const email = Buffer.from(token.slice(0, dot), 'base64url').toString('utf8');
  // Control characters (a NUL byte cannot even be looked up in PostgreSQL) mean a forged token.
  return email.includes('@') && !/\p{Cc}/u.test(email) ? email : null;
}

export function hashSecret(key: string, purpose: string, value: string): string {
  return createHmac('sha256', key).update(`${purpose}\n${value}`).digest('base64url');
}

export function sameHash(a: unknown, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
