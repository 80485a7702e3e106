import { createContext, useContext } from 'react';
import type { PublicSettings } from '../../platform';
import type { User } from '../../../shared/entities';
import type { AuthError } from './auth-errors';

/** The app state of spec.md 2.3, plus what the shell needs to act on it. */
export interface AuthState {
  user: User | null;
  isAuthenticated: boolean;
  isLoadingAuth: boolean;
  isLoadingPublicSettings: boolean;
  authError: AuthError | null;
  publicSettings: PublicSettings | null;
  offline: boolean;
  userLoadError?: string;
  /** Signed out with no connection: the shell shows SignedOutOffline (issue #9.8). */
  needsConnection?: boolean;
}

export interface AuthApi extends AuthState {
  /**
   * Asks first when changes are pending (S11); then stops sync, clears the local copy when nothing
   * of anyone is pending, clears the user and the stored token, and goes to the platform's logout
   * URL (which returns to `redirectTo`, default the current page) — or, with `redirect: false` or
   * when the server cannot be reached (that URL is the server's), reloads the page, which the
   * service worker serves offline and start-up turns into the signed-out screen. Resolves false when the user chose to stay.
   */
  logout(options?: { redirect?: boolean; redirectTo?: string }): Promise<boolean>;
  /** Ids of other users with changes still waiting on this device; undefined while counting. */
  othersPending?: string[];
  /** Replace the signed-in user (e.g. after the profile was submitted). */
  setUser(user: User): void;
  /** `{appBaseUrl}/login?from_url={current page}`. */
  navigateToLogin(): void;
  /** Run start-up again (the error screen's Try again). */
  retry(): void;
}

export const AuthContext = createContext<AuthApi | null>(null);

export function useAuth(): AuthApi {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}

export const INITIAL_AUTH_STATE: AuthState = {
  user: null,
  isAuthenticated: false,
  isLoadingAuth: true,
  isLoadingPublicSettings: true,
  authError: null,
  publicSettings: null,
  offline: false,
};
