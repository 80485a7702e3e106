/**
 * The error catalogue of spec.md 8, as pure functions over what the platform client threw.
 * Screens: auth_required → login redirect; user_not_registered → Access Restricted; anything
 * else → the start-up error screen.
 */
export interface AuthError {
  type: string;
  message: string;
}

interface ErrorLike {
  message?: unknown;
  status?: unknown;
  data?: unknown;
}

function reasonOf(data: unknown): string | undefined {
  const reason = (data as { extra_data?: { reason?: unknown } } | null | undefined)?.extra_data?.reason;
  return typeof reason === 'string' && reason ? reason : undefined;
}

function messageOf(error: unknown): string {
  const m = (error as ErrorLike | null)?.message;
  return typeof m === 'string' ? m : '';
}

/** No HTTP answer at all (PlatformError.status undefined): offline or the server unreachable. */
export function isTransportFailure(error: unknown): boolean {
  return !!error && typeof error === 'object' && 'status' in error && (error as ErrorLike).status === undefined;
}

/** Public-settings load failures. */
export function publicSettingsError(error: unknown): AuthError {
  const e = error as ErrorLike | null;
  if (!e || typeof e !== 'object') return { type: 'unknown', message: 'An unexpected error occurred' };
  const reason = e.status === 403 ? reasonOf(e.data) : undefined;
  if (reason === 'auth_required') return { type: 'auth_required', message: 'Authentication required' };
  if (reason === 'user_not_registered') return { type: 'user_not_registered', message: 'User not registered for this app' };
  if (reason) return { type: reason, message: messageOf(e) };
  return { type: 'unknown', message: messageOf(e) || 'Failed to load app' };
}

/** Current-user failures: 401/403 mean sign in again; anything else leaves the user signed out. */
export function currentUserError(error: unknown): AuthError | null {
  const status = (error as ErrorLike | null)?.status;
  // An administrator revoked this tablet (issue #21.2): the shell erases its copy and says why.
  if (status === 401 && (error as { code?: unknown } | null)?.code === 'DEVICE_REVOKED') {
    return { type: 'device_revoked', message: messageOf(error) || 'This tablet was signed out by an administrator.' };
  }
  if (status === 401 || status === 403) return { type: 'auth_required', message: 'Authentication required' };
  return null;
}

export const UNEXPECTED_ERROR: AuthError = { type: 'unknown', message: 'An unexpected error occurred' };
