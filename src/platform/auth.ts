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
    // Not made absolute, as in the SDK ("/bye" stays "%2Fbye").
    logoutUrl: (fromUrl) => `${appBaseUrl}/api/apps/auth/logout?from_url=${encodeURIComponent(fromUrl)}`,
  };
}
