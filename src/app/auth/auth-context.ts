import { createContext, useContext } from 'react';
import type { PublicSettings } from '../../platform';
import type { User } from '../../../shared/entities';
import type { AuthError } from './auth-errors';
import type { LockInfo, LockState, UnlockResult } from '../../data/device-lock';

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
  /** The device lock of a signed-in user (issue #14); null before start-up decided. */
  lock: LockState | null;
  /**
   * An administrator revoked this tablet (issue #21.2): its copy was erased; the reason to show.
   */
  revoked?: string | null;
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
  /** Try the device PIN; on success the app opens (and sync starts). */
  unlock(pin: string): Promise<UnlockResult>;
  /** Choose this device's PIN (first sign-in here, or after a reset), optionally with the authenticator. */
  setPin(pin: string, options?: { withAuthenticator?: boolean }): Promise<void>;
  /** Lock now (the Lock button): sync stops, the key and every opened list leave memory, in every tab. */
  lockNow(): void;
  /** The idle lock: the same, in this tab only (another tab may be in use). */
  lockIdle(): void;
  /** Forgot the PIN: forget the stored sign-in (the data stays) and sign in online to set a new one. */
  forgotPin(): void;
  /** Sign in with the password again (10 wrong PINs destroyed the PIN, or the tablet was erased). */
  afterWipe(): void;
  /** The PIN policy, wrong tries so far, the wait, and the changes waiting here. */
  lockInfo(): Promise<LockInfo>;
  /** Whether the PIN can also require this tablet's authenticator (WebAuthn PRF, issue #21.4). */
  secondFactorAvailable(): Promise<boolean>;
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
  lock: null,
};
