import { BRAND_SLUG } from '../../shared/config';

/**
 * Where the access token lives (platform-contract.md 4, design.md Naming): `academy_access_token`,
 * mirrored under `token` as the SDK does for the platform's built-in tooling.
 */
export const TOKEN_KEY = `${BRAND_SLUG}_access_token`;
export const LEGACY_TOKEN_KEY = 'token';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function defaultStorage(): KeyValueStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Some privacy modes throw on access; the app then runs without a remembered token.
    return null;
  }
}

export function getStoredToken(storage: KeyValueStore | null = defaultStorage()): string | null {
  return storage?.getItem(TOKEN_KEY) ?? null;
}

export function saveToken(token: string, storage: KeyValueStore | null = defaultStorage()): void {
  storage?.setItem(TOKEN_KEY, token);
  storage?.setItem(LEGACY_TOKEN_KEY, token);
}

export function removeToken(storage: KeyValueStore | null = defaultStorage()): void {
  storage?.removeItem(TOKEN_KEY);
  storage?.removeItem(LEGACY_TOKEN_KEY);
}

/** `saveToken`/`removeToken` as one setter, the shape `createPlatformClient({ setToken })` takes. */
export function storeToken(token: string | null, storage: KeyValueStore | null = defaultStorage()): void {
  if (token) saveToken(token, storage);
  else removeToken(storage);
}
