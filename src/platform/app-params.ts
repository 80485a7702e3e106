import { BRAND_SLUG, DEFAULT_APP_ID } from '../../shared/config';
import { LEGACY_TOKEN_KEY, TOKEN_KEY } from './token-store';

/**
 * Start-up URL parameters (spec.md 2.1, platform-contract.md 4 and 8). `planAppParams` is the
 * pure rule; `readAppParams` applies it to the real address bar and localStorage.
 *
 * - access_token: taken from the URL, stored under `academy_access_token` and `token`, and removed
 *   from the address bar (other params and the hash kept) so it never lands in history or a
 *   bookmark; otherwise the stored token.
 * - clear_access_token=true: forget the stored token (and drop the flag from the address bar, so a
 *   reload does not sign the user out again).
 * - app_id, server_url, app_base_url, functions_version: URL, else stored, else the default. (The
 *   generated template let a default win over a stored value, which made storing them pointless.)
 * - from_url: URL, else the current page. Never read back from storage: a stale page from an
 *   earlier visit is not where the user is now.
 * - Any other parameter is stored under `academy_<snake_case name>`.
 */
export interface AppParams {
  appId: string;
  /** '' means the page's own origin: calls go to /api on the same host. */
  serverUrl: string;
  appBaseUrl: string;
  fromUrl: string;
  functionsVersion: string | null;
  accessToken: string | null;
}

export interface AppParamsPlan {
  params: AppParams;
  writes: [string, string][];
  removals: string[];
  /** The address to put in the bar with history.replaceState, or null to leave it alone. */
  cleanedUrl: string | null;
}

const HANDLED = new Set(['access_token', 'clear_access_token', 'app_id', 'server_url', 'app_base_url', 'from_url', 'functions_version']);

export function toSnakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-\s]+/g, '_').toLowerCase();
}

export function storageKeyFor(name: string): string {
  return `${BRAND_SLUG}_${toSnakeCase(name)}`;
}

export function planAppParams(href: string, stored: (key: string) => string | null): AppParamsPlan {
  const url = new URL(href);
  const search = url.searchParams;
  const writes: [string, string][] = [];
  const removals: string[] = [];
  const pending = new Map<string, string | null>();
  const read = (key: string) => (pending.has(key) ? pending.get(key)! : stored(key));
  const write = (key: string, value: string) => {
    writes.push([key, value]);
    pending.set(key, value);
  };

  let stripped = false;
  if (search.get('clear_access_token') === 'true') {
    removals.push(TOKEN_KEY, LEGACY_TOKEN_KEY);
    pending.set(TOKEN_KEY, null);
    search.delete('clear_access_token');
    stripped = true;
  }
  const urlToken = search.get('access_token');
  if (urlToken) {
    write(TOKEN_KEY, urlToken);
    write(LEGACY_TOKEN_KEY, urlToken);
  }
  if (search.has('access_token')) {
    search.delete('access_token');
    stripped = true;
  }

  const fromUrlOrStored = (name: string, fallback: string | null): string | null => {
    const key = storageKeyFor(name);
    const value = search.get(name);
    if (value) {
      write(key, value);
      return value;
    }
    return read(key) || fallback;
  };

  const appId = fromUrlOrStored('app_id', DEFAULT_APP_ID) ?? DEFAULT_APP_ID;
  const serverUrl = fromUrlOrStored('server_url', '') ?? '';
  const appBaseUrl = fromUrlOrStored('app_base_url', '') ?? '';
  const functionsVersion = fromUrlOrStored('functions_version', null);
  const urlFrom = search.get('from_url');
  if (urlFrom) write(storageKeyFor('from_url'), urlFrom);

  for (const [name, value] of search) {
    if (!HANDLED.has(name)) write(storageKeyFor(name), value);
  }

  // The page as the user should see it: the address without the token.
  const query = search.toString();
  const cleanedUrl = stripped ? `${url.pathname}${query ? `?${query}` : ''}${url.hash}` : null;
  const fromUrl = urlFrom || `${url.origin}${cleanedUrl ?? `${url.pathname}${url.search}${url.hash}`}`;

  return {
    params: { appId, serverUrl, appBaseUrl, fromUrl, functionsVersion, accessToken: read(TOKEN_KEY) || null },
    writes,
    removals,
    cleanedUrl,
  };
}

export interface AppParamsEnv {
  href: string;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  replaceUrl: (url: string) => void;
}

function browserEnv(): AppParamsEnv {
  let storage: AppParamsEnv['storage'] = null;
  try {
    storage = window.localStorage;
  } catch {
    // Storage can be blocked (privacy modes); params then live for this page load only.
  }
  return {
    href: window.location.href,
    storage,
    replaceUrl: (url) => window.history.replaceState(window.history.state, document.title, url),
  };
}

export function readAppParams(env: AppParamsEnv = browserEnv()): AppParams {
  const plan = planAppParams(env.href, (key) => env.storage?.getItem(key) ?? null);
  for (const key of plan.removals) env.storage?.removeItem(key);
  for (const [key, value] of plan.writes) env.storage?.setItem(key, value);
  if (plan.cleanedUrl !== null) env.replaceUrl(plan.cleanedUrl);
  return plan.params;
}
