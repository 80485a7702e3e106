import { createContext, useContext } from 'react';
import type { PublicSettings } from '../../platform';
import type { User } from '../../data/types';
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
}

export interface AuthApi extends AuthState {
  /**
   * Clears the user and the stored token, stops sync, then goes to the platform's logout URL
   * (which returns to `redirectTo`, default the current page) — or, with `redirect: false`,
   * reloads the page.
   */
  logout(options?: { redirect?: boolean; redirectTo?: string }): Promise<void>;
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
