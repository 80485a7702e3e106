import { BRAND_SLUG } from '../../shared/config';

/**
 * Where the access token lives (issue #21.1): in memory only, for this page load. A copy sealed
 * under the device's data key is kept by the data layer (data/device-lock.ts) so the next start can
 * use it once the PIN opened the vault; nothing a later load could read holds it in clear.
 *
 * `academy_access_token` and `token` (platform-contract.md 4, the keys the SDK writes) are only
 * read once, to move an older device's clear token into memory, and then deleted.
 */
export const TOKEN_KEY = `${BRAND_SLUG}_access_token`;
export const LEGACY_TOKEN_KEY = 'token';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

let current: string | null = null;
const listeners = new Set<(token: string | null) => void>();

export function getStoredToken(): string | null {
  return current;
}

/** `createPlatformClient({ setToken })`'s shape: a new token, or null to forget it. */
export function storeToken(token: string | null): void {
  if (token === current) return;
  current = token || null;
  for (const listener of listeners) listener(current);
}

export function saveToken(token: string): void {
  storeToken(token);
}

export function removeToken(): void {
  storeToken(null);
}

/** Called with every new token (or null): the data layer seals it for the next start. */
export function onTokenChange(listener: (token: string | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function defaultStorage(): KeyValueStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * A token an older version of Passage left in clear (localStorage): taken into memory and deleted
 * from the disk at once. Returns it, or null.
 */
export function takeLegacyToken(storage: KeyValueStore | null = defaultStorage()): string | null {
  const token = storage?.getItem(TOKEN_KEY) ?? storage?.getItem(LEGACY_TOKEN_KEY) ?? null;
  storage?.removeItem(TOKEN_KEY);
  storage?.removeItem(LEGACY_TOKEN_KEY);
  return token || null;
}

/** The claims a token says about itself (its session id, to end the session after an offline logout). */
export function tokenClaims(token: string | null): { sid?: string; sub?: string; exp?: number } | null {
  if (!token) return null;
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const claims = JSON.parse(json) as Record<string, unknown>;
    return {
      sid: typeof claims.sid === 'string' ? claims.sid : undefined,
      sub: typeof claims.sub === 'string' ? claims.sub : undefined,
      exp: typeof claims.exp === 'number' ? claims.exp : undefined,
    };
  } catch {
    return null;
  }
}
