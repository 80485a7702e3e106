/**
 * Who is calling: reads the bearer token and the caller's User record. A valid token for another
 * app, or of a disabled or deleted user, is "unregistered" (platform-contract.md 5.1); a missing
 * token is anonymous; a malformed or expired one is `invalid` (a 401, so clients ask to sign in).
 */
import type { Store } from '../store/types';
import { tokenRevoked, type AuthState } from './accounts';
import type { Principal } from './permissions';
import { readToken } from './tokens';
import type { UserFields } from './permissions';

export type Caller = Principal | { kind: 'invalid' };

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
  const user = await store.get(appId, 'User', claims.sub);
  if (!user || user.disabled === true) return { kind: 'unregistered' };
  // A password change or reset signs out every other device (a lost tablet keeps no access).
  if (typeof user.email === 'string' && tokenRevoked((await store.getAuth(appId, user.email)) as AuthState | null, claims)) {
    return { kind: 'invalid' };
  }
  return { kind: 'user', user: user as UserFields & typeof user };
}
