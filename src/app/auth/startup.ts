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
  /**
   * The account whose sealed copy this device holds, when there is no token in memory (issue #21:
   * every start is locked; the sign-in comes out of the vault with the PIN). null without a vault.
   */
  lockedOwner?(): Promise<User | null>;
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

/** A device holding a sealed copy and no token in memory: its owner, locked (the PIN screen). */
async function lockedStart(deps: StartupDeps): Promise<StartupResult | null> {
  const owner = await deps.lockedOwner?.().catch(() => null);
  return owner ? { user: owner, isAuthenticated: true, authError: null, publicSettings: null, offline: false } : null;
}

export async function runStartup(deps: StartupDeps): Promise<StartupResult> {
  try {
    // A locked device (issue #21): its sign-in is sealed, so nothing can be asked of the server yet
    // (no request goes out while locked). The PIN screen first; start-up runs again after it.
    if (!deps.hasToken) {
      const locked = await lockedStart(deps);
      if (locked) return locked;
    }
    let publicSettings: PublicSettings;
    try {
      publicSettings = await deps.client.getPublicSettings();
    } catch (error) {
      if (isTransportFailure(error)) {
        const offline = await cachedStart(deps, null);
        if (offline) return offline;
        if (!deps.hasToken) return { ...signedOut(null), needsConnection: true };
      }
      const settingsError = publicSettingsError(error);
      if (deps.hasToken && settingsError.type === 'auth_required') {
        // The sign-in was refused: ask who this is, so a tablet an administrator revoked learns
        // why (issue #21.2: the entity API answers DEVICE_REVOKED with the reason).
        const revoked = await deps.client.auth.me().then(
          () => null,
          (e: unknown) => currentUserError(e),
        );
        if (revoked?.type === 'device_revoked') return signedOut(revoked);
      }
      return signedOut(settingsError);
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
