/**
 * Who is calling: reads the bearer token and the caller's User record. A valid token for another
 * app, or of a disabled or deleted user, is "unregistered" (platform-contract.md 5.1); a missing
 * token is anonymous; a malformed or expired one is `invalid` (a 401, so clients ask to sign in).
 * A token of a device an administrator revoked in mode erase, or of a revoked session, is `revoked`
 * (a 401 naming why, issue #21): the device is checked first, so the tablet learns that it must
 * erase even when its session or the whole account was revoked with it.
 */
import type { Store, TokenStanding } from '../store/types';
import { tokenRevoked, type AuthState } from './accounts';
import type { UserFields } from './permissions';
import { readToken, type TokenClaims } from './tokens';

export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'unregistered' }
  | { kind: 'user'; user: UserFields; claims: TokenClaims }
  | { kind: 'invalid' }
  | { kind: 'revoked'; code: 'SESSION_REVOKED' | 'DEVICE_REVOKED'; message: string };

export const DEVICE_REVOKED_MESSAGE = 'This tablet was signed out by an administrator.';
export const SESSION_REVOKED_MESSAGE = 'You have been signed out. Please sign in again.';

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export async function resolveCaller(store: Store, key: Uint8Array, appId: string, header: string | undefined, now: Date): Promise<Caller> {
  const token = bearerToken(header);
  if (!token) return header ? { kind: 'invalid' } : { kind: 'anonymous' };
  const claims = await readToken(key, token, now);
  if (!claims) return { kind: 'invalid' };
  if (claims.app_id !== appId || claims.sub.length > 200) return { kind: 'unregistered' };
  if (claims.did) {
    const device = await store.getDevice(appId, claims.did);
    if (device?.revoke_mode === 'erase' && device.user_id === claims.sub) {
      return { kind: 'revoked', code: 'DEVICE_REVOKED', message: device.revoked_reason || DEVICE_REVOKED_MESSAGE };
    }
  }
  const user = await store.get(appId, 'User', claims.sub);
  if (!user || user.disabled === true) return { kind: 'unregistered' };
  // Tokens from before sessions carry no sid and keep working until they expire (12 h at most).
  if (claims.sid) {
    const session = await store.getSession(appId, claims.sid);
    if (!session || session.revoked_date || session.user_id !== claims.sub) {
      return { kind: 'revoked', code: 'SESSION_REVOKED', message: SESSION_REVOKED_MESSAGE };
    }
  }
  // A password change or reset signs out every other device (a lost tablet keeps no access).
  if (typeof user.email === 'string' && tokenRevoked((await store.getAuth(appId, user.email)) as AuthState | null, claims)) {
    return { kind: 'invalid' };
  }
  return { kind: 'user', user: user as UserFields & typeof user, claims };
}

/**
 * Issue #24.2: whether an open change stream may stay open, re-checked every keep-alive tick from
 * one read (Store.tokenStanding). `device_revoked`: the token's device was revoked (either mode),
 * so the stream says `event: revoked` and the tablet asks deviceStatus what to do; `ended`: the
 * token no longer passes the checks of resolveCaller (session revoked, user disabled or deleted,
 * token_version raised), so the stream just closes and the tablet's reopen gets the 401.
 */
export type Standing = 'ok' | 'device_revoked' | 'ended';

export function standingOf(standing: TokenStanding, claims: TokenClaims): Standing {
  if (claims.did && standing.device?.revoked_date && standing.device.user_id === claims.sub) return 'device_revoked';
  const user = standing.user;
  if (!user || user.disabled === true) return 'ended';
  if (claims.sid && (!standing.session || standing.session.revoked_date || standing.session.user_id !== claims.sub)) return 'ended';
  if (typeof user.email === 'string' && tokenRevoked(standing.auth as AuthState | null, claims)) return 'ended';
  return 'ok';
}

export async function checkStanding(store: Store, appId: string, claims: TokenClaims): Promise<Standing> {
  const standing = await store.tokenStanding(appId, { deviceId: claims.did ?? null, sessionId: claims.sid ?? null, userId: claims.sub });
  return standingOf(standing, claims);
}
