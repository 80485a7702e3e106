import type { PublicSettings } from '../../platform';
import type { User } from '../../../shared/entities';
import { currentUserError, isTransportFailure, publicSettingsError, UNEXPECTED_ERROR, type AuthError } from './auth-errors';

/**
 * Start-up (spec.md 2.3, design S11): public settings, then the current user when a token exists.
 * Offline start: with a stored token and a cached user, a transport failure (no HTTP answer) on
 * either call starts Passage with the cached user — a coach in a facility with no signal still
 * gets their day's work. Any HTTP answer is believed (a 403 means the token really is bad).
 */
export interface StartupDeps {
  client: {
    getPublicSettings(): Promise<PublicSettings>;
    auth: { me(): Promise<User> };
  };
  hasToken: boolean;
  getCachedUser(): Promise<User | null>;
  cacheCurrentUser(user: User): Promise<void>;
  /** Called once public settings are known, so the shell can show the next loading stage. */
  onPublicSettings?(settings: PublicSettings | null): void;
}

export interface StartupResult {
  user: User | null;
  isAuthenticated: boolean;
  authError: AuthError | null;
  publicSettings: PublicSettings | null;
  /** Started from the cached user because the server could not be reached. */
  offline: boolean;
  /**
   * Why the current user could not be loaded when that is not an auth error (a 5xx, or offline
   * with nothing cached): the user stays signed out (spec 8) and the shell says why, with a retry,
   * instead of bouncing them through the login page.
   */
  userLoadError?: string;
  /**
   * Signed out (no token) and the server out of reach: sign-in needs a connection, so the shell
   * says so with a retry instead of sending the browser to a /login it cannot load (issue #9.8).
   */
  needsConnection?: boolean;
}

const signedOut = (authError: AuthError | null, publicSettings: PublicSettings | null = null): StartupResult => ({
  user: null,
  isAuthenticated: false,
  authError,
  publicSettings,
  offline: false,
});

async function cachedStart(deps: StartupDeps, publicSettings: PublicSettings | null): Promise<StartupResult | null> {
  if (!deps.hasToken) return null;
  const cached = await deps.getCachedUser().catch(() => null);
  return cached ? { user: cached, isAuthenticated: true, authError: null, publicSettings, offline: true } : null;
}

export async function runStartup(deps: StartupDeps): Promise<StartupResult> {
  try {
    let publicSettings: PublicSettings;
    try {
      publicSettings = await deps.client.getPublicSettings();
    } catch (error) {
      if (isTransportFailure(error)) {
        const offline = await cachedStart(deps, null);
        if (offline) return offline;
        if (!deps.hasToken) return { ...signedOut(null), needsConnection: true };
      }
      return signedOut(publicSettingsError(error));
    }
    deps.onPublicSettings?.(publicSettings);

    // The client does not itself require sign-in (spec 2.3); with no token there is no one to fetch.
    if (!deps.hasToken) return signedOut(null, publicSettings);

    try {
      const user = await deps.client.auth.me();
      // A cache that cannot be written (private mode, quota) costs only the offline start.
      await deps.cacheCurrentUser(user).catch((err: unknown) => console.warn('Could not cache the current user', err));
      return { user, isAuthenticated: true, authError: null, publicSettings, offline: false };
    } catch (error) {
      if (isTransportFailure(error)) {
        const offline = await cachedStart(deps, publicSettings);
        if (offline) return offline;
      }
      const authError = currentUserError(error);
      const result = signedOut(authError, publicSettings);
      if (!authError) result.userLoadError = (error as Error)?.message || 'Failed to load your account';
      return result;
    }
  } catch {
    return signedOut(UNEXPECTED_ERROR);
  }
}
