/**
 * Sign-in lockout, as pure functions over the per-user auth state: 5 failed sign-ins within
 * 15 minutes lock the account for 15 minutes. During the lock even the right password is refused,
 * so guessing cannot continue by waiting for a lucky hit.
 */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const LOCK_MS = 15 * 60 * 1000;

export interface LockoutState {
  failed_logins?: string[];
  locked_until?: string | null;
}

export function lockedUntil(state: LockoutState, now: Date): Date | null {
  if (!state.locked_until) return null;
  const until = new Date(state.locked_until);
  return until.getTime() > now.getTime() ? until : null;
}

/** The state after one more failed attempt at `now`. */
export function recordFailure(state: LockoutState, now: Date): Required<LockoutState> {
  const since = now.getTime() - FAILURE_WINDOW_MS;
  const recent = (state.failed_logins ?? []).filter((t) => new Date(t).getTime() > since);
  recent.push(now.toISOString());
  if (recent.length >= MAX_FAILURES) {
    return { failed_logins: [], locked_until: new Date(now.getTime() + LOCK_MS).toISOString() };
  }
  return { failed_logins: recent, locked_until: state.locked_until ?? null };
}

export function recordSuccess(): Required<LockoutState> {
  return { failed_logins: [], locked_until: null };
}
