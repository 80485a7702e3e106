import { BRAND_SLUG, DEFAULT_APP_ID } from '../../shared/config';
import { LEGACY_TOKEN_KEY, TOKEN_KEY } from './token-store';

/**
 * Start-up URL parameters (spec.md 2.1, platform-contract.md 4 and 8; issue #21.1 and .6).
 * `planAppParams` is the pure rule; `readAppParams` applies it to the real address bar and storage.
 *
 * - access_token (a plain platform server's sign-in): read and removed from the address bar (other
 *   params and the hash kept), kept in memory only — never written to storage (issue #21.1).
 * - code: the one-time code of a sign-in on Passage's own server, exchanged by POST; removed from the
 *   address bar the same way.
 * - clear_access_token=true: forget the token (and drop the flag from the address bar).
 * - app_id, server_url, app_base_url, functions_version: where the app talks to, nothing personal:
 *   URL, else stored, else the default.
 * - from_url: URL, else the current page; never stored (a page address may name a record).
 * - Any other parameter is kept for this page load under `academy_<snake_case name>` in memory
 *   (`extra`), not in localStorage: a URL may carry a participant's name (`?q=`), and storage
 *   outlives the session on a shared tablet (issue #21.6).
 */
export interface AppParams {
  appId: string;
  /** '' means the page's own origin: calls go to /api on the same host. */
  serverUrl: string;
  appBaseUrl: string;
  fromUrl: string;
  functionsVersion: string | null;
  /** A token handed over in this page's address (plain platform), or null. */
  accessToken: string | null;
  /** The one-time sign-in code in this page's address (Passage's server), or null. */
  signInCode: string | null;
  /** clear_access_token=true was in the address. */
  clearToken: boolean;
  /** Other parameters of this load, by `academy_<snake_case>` name (memory only). */
  extra: Record<string, string>;
}

export interface AppParamsPlan {
  params: AppParams;
  writes: [string, string][];
  removals: string[];
  /** The address to put in the bar with history.replaceState, or null to leave it alone. */
  cleanedUrl: string | null;
}

/** Settings of where the app talks to: the only parameters kept in storage. */
const STORED = ['app_id', 'server_url', 'app_base_url', 'functions_version'] as const;
const HANDLED = new Set<string>(['access_token', 'clear_access_token', 'code', 'from_url', ...STORED]);

export function toSnakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-\s]+/g, '_').toLowerCase();
}

export function storageKeyFor(name: string): string {
  return `${BRAND_SLUG}_${toSnakeCase(name)}`;
}

const STORED_KEYS = new Set<string>(STORED.map(storageKeyFor));

/**
 * `storedKeys`: every key in storage, so values older versions copied there (`academy_q`, the
 * clear token, `academy_from_url`) are removed.
 */
export function planAppParams(href: string, stored: (key: string) => string | null, storedKeys: readonly string[] = []): AppParamsPlan {
  const url = new URL(href);
  const search = url.searchParams;
  const writes: [string, string][] = [];
  const removals = storedKeys.filter((k) => (k.startsWith(`${BRAND_SLUG}_`) && !STORED_KEYS.has(k)) || k === LEGACY_TOKEN_KEY);
  if (stored(TOKEN_KEY) !== null && !removals.includes(TOKEN_KEY)) removals.push(TOKEN_KEY);

  let stripped = false;
  const clearToken = search.get('clear_access_token') === 'true';
  if (search.has('clear_access_token')) {
    search.delete('clear_access_token');
    stripped = true;
  }
  const accessToken = search.get('access_token') || null;
  const signInCode = search.get('code') || null;
  for (const name of ['access_token', 'code']) {
    if (search.has(name)) {
      search.delete(name);
      stripped = true;
    }
  }

  const fromUrlOrStored = (name: string, fallback: string | null): string | null => {
    const key = storageKeyFor(name);
    const value = search.get(name);
    if (value) {
      if (stored(key) !== value) writes.push([key, value]);
      return value;
    }
    return stored(key) || fallback;
  };

  const appId = fromUrlOrStored('app_id', DEFAULT_APP_ID) ?? DEFAULT_APP_ID;
  const serverUrl = fromUrlOrStored('server_url', '') ?? '';
  const appBaseUrl = fromUrlOrStored('app_base_url', '') ?? '';
  const functionsVersion = fromUrlOrStored('functions_version', null);
  const urlFrom = search.get('from_url');

  const extra: Record<string, string> = {};
  for (const [name, value] of search) {
    if (!HANDLED.has(name)) extra[storageKeyFor(name)] = value;
  }

  // The page as the user should see it: the address without the token or the code.
  const query = search.toString();
  const cleanedUrl = stripped ? `${url.pathname}${query ? `?${query}` : ''}${url.hash}` : null;
  const fromUrl = urlFrom || `${url.origin}${cleanedUrl ?? `${url.pathname}${url.search}${url.hash}`}`;

  return {
    params: {
      appId,
      serverUrl,
      appBaseUrl,
      fromUrl,
      functionsVersion,
      accessToken: clearToken ? null : accessToken,
      signInCode: clearToken ? null : signInCode,
      clearToken,
      extra,
    },
    writes,
    removals,
    cleanedUrl,
  };
}

export interface AppParamsEnv {
  href: string;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** Every key in storage (to remove what older versions copied there). */
  storedKeys?: readonly string[];
  replaceUrl: (url: string) => void;
}

function browserEnv(): AppParamsEnv {
  let storage: AppParamsEnv['storage'] = null;
  try {
    storage = window.localStorage;
  } catch {
    // Storage can be blocked (privacy modes); params then live for this page load only.
  }
  let storedKeys: string[] = [];
  try {
    storedKeys = storage ? Object.keys(storage) : [];
  } catch {
    storedKeys = [];
  }
  return {
    href: window.location.href,
    storage,
    storedKeys,
    replaceUrl: (url) => window.history.replaceState(window.history.state, document.title, url),
  };
}

export function readAppParams(env: AppParamsEnv = browserEnv()): AppParams {
  const plan = planAppParams(env.href, (key) => env.storage?.getItem(key) ?? null, env.storedKeys ?? []);
  for (const key of plan.removals) env.storage?.removeItem(key);
  for (const [key, value] of plan.writes) env.storage?.setItem(key, value);
  if (plan.cleanedUrl !== null) env.replaceUrl(plan.cleanedUrl);
  return plan.params;
}
