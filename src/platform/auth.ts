import { PlatformError } from './errors';
import type { Transport } from './transport';

/**
 * `auth` of platform-contract.md 3. Token storage belongs to the caller: a successful login hands
 * the new token to `setToken`, and a login refused with 401 clears it (spec.md 8: "A login that
 * fails with HTTP 401 logs the user out"). Nothing here navigates except `redirectToLogin`, which
 * exists to navigate.
 */
export interface AuthConfig {
  appId: string;
  /** Prefix of /login and /api/apps/auth/logout; '' keeps them on the page's own origin. */
  appBaseUrl?: string;
  setToken?: (token: string | null) => void;
  /** How to leave the page; defaults to `location.assign`. Injected by tests. */
  navigate?: (url: string) => void;
}

export interface LoginResult<U> {
  access_token: string;
  user: U;
}

export interface AuthClient<U> {
  me(): Promise<U>;
  updateMe(data: Partial<U>): Promise<U>;
  login(email: string, password: string, turnstileToken?: string): Promise<LoginResult<U>>;
  register(payload: { email: string; password: string; turnstile_token?: string; referral_code?: string }): Promise<unknown>;
  verifyOtp(args: { email: string; otpCode: string }): Promise<unknown>;
  resendOtp(email: string): Promise<unknown>;
  resetPasswordRequest(email: string): Promise<unknown>;
  resetPassword(args: { resetToken: string; newPassword: string }): Promise<unknown>;
  changePassword(args: { userId: string; currentPassword: string; newPassword: string }): Promise<unknown>;
  inviteUser(email: string, role: string): Promise<unknown>;
  redirectToLogin(nextUrl?: string): void;
  logoutUrl(fromUrl: string): string;
  /**
   * Passage's server (issue #21.1): the one-time code of a sign-in, with the verifier this tab made
   * before leaving for /login, for the token (handed to `setToken`). Never part of a URL.
   */
  exchangeCode(args: { code: string; codeVerifier: string | null; deviceId?: string | null }): Promise<LoginResult<U>>;
  /**
   * Ends sessions on the server (issue #21.2): with no argument the current token's; with session
   * ids, those (an offline logout or an erase, told at the next contact; no token needed).
   */
  endSessions(sessionIds?: string[]): Promise<void>;
}

export function createAuthClient<U>(request: Transport, config: AuthConfig): AuthClient<U> {
  const base = `/apps/${config.appId}`;
  const appBaseUrl = config.appBaseUrl ?? '';
  // Concurrent me() calls share one request, as in the SDK: start-up, guard and sync often ask at once.
  let meInFlight: Promise<U> | null = null;
  const post = (path: string, body: unknown) => request({ method: 'POST', path: `${base}${path}`, body });

  return {
    me() {
      meInFlight ??= request<U>({ method: 'GET', path: `${base}/entities/User/me` }).finally(() => {
        meInFlight = null;
      });
      return meInFlight;
    },
    updateMe: (data) => request({ method: 'PUT', path: `${base}/entities/User/me`, body: data }),
    async login(email, password, turnstileToken) {
      const body: Record<string, string> = { email, password };
      if (turnstileToken) body.turnstile_token = turnstileToken;
      try {
        const result = (await post('/auth/login', body)) as LoginResult<U>;
        config.setToken?.(result.access_token);
        return result;
      } catch (err) {
        if (err instanceof PlatformError && err.status === 401) config.setToken?.(null);
        throw err;
      }
    },
    register: (payload) => post('/auth/register', payload),
    verifyOtp: ({ email, otpCode }) => post('/auth/verify-otp', { email, otp_code: otpCode }),
    resendOtp: (email) => post('/auth/resend-otp', { email }),
    resetPasswordRequest: (email) => post('/auth/reset-password-request', { email }),
    resetPassword: ({ resetToken, newPassword }) =>
      post('/auth/reset-password', { reset_token: resetToken, new_password: newPassword }),
    changePassword: ({ userId, currentPassword, newPassword }) =>
      post('/auth/change-password', { user_id: userId, current_password: currentPassword, new_password: newPassword }),
    inviteUser: (email, role) => post('/users/invite-user', { user_email: email, role }),
    redirectToLogin(nextUrl) {
      if (typeof window === 'undefined' || !window.location) {
        throw new Error('Login method can only be used in a browser environment');
      }
      const absolute = new URL(nextUrl ?? window.location.href, window.location.origin).toString();
      const url = `${appBaseUrl}/login?from_url=${encodeURIComponent(absolute)}`;
      (config.navigate ?? ((u: string) => window.location.assign(u)))(url);
    },
    async exchangeCode({ code, codeVerifier, deviceId }) {
      const body: Record<string, string> = { code };
      if (codeVerifier) body.code_verifier = codeVerifier;
      // The session is bound to this device: an administrator's revocation reaches it by that id.
      if (deviceId) body.device_id = deviceId;
      const result = (await post('/auth/exchange', body)) as LoginResult<U>;
      config.setToken?.(result.access_token);
      return result;
    },
    async endSessions(sessionIds) {
      await post('/auth/logout', sessionIds ? { sessions: sessionIds } : {});
    },
    // Not made absolute, as in the SDK ("/bye" stays "%2Fbye").
    logoutUrl: (fromUrl) => `${appBaseUrl}/api/apps/auth/logout?from_url=${encodeURIComponent(fromUrl)}`,
  };
}
