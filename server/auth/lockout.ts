/**
 * Sign-in lockout, as pure functions over the per-user auth state. The policy (issue #10.6): failed
 * attempts are counted per account AND source (the client's address): 5 failures from one source
 * within 15 minutes lock that source out of that account for 15 minutes. During the lock even the
 * right password is refused from that source, so guessing cannot continue by waiting for a lucky
 * hit; other sources (the real owner at their desk) are not locked, so nobody can lock an
 * administrator out by failing on purpose.
 *
 * A failure is counted right *after* its check, in the locked read-modify-write (Store.updateAuth)
 * that also accepts a right password (auth-service.ts `checkPassword`); on each server the checks
 * of one account from one source run one at a time, so 50 parallel guesses get 5 checks, and 10
 * parallel right passwords are never refused (issue #25: counting first gave them 429s).
 */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const LOCK_MS = 15 * 60 * 1000;
/** Sources remembered per account; the oldest are forgotten first. */
export const MAX_SOURCES = 50;

export interface LockoutState {
  failed_logins?: string[];
  locked_until?: string | null;
}

export type LockoutBySource = Record<string, LockoutState>;

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

/** The lockout state of one source (own properties only: the key comes from the network). */
export function stateOf(all: LockoutBySource | undefined, source: string): LockoutState {
  return all && Object.hasOwn(all, source) ? all[source] : {};
}

/**
 * `all` with `source` set to `state`; sources with nothing recent and no lock are dropped, and
 * only the MAX_SOURCES most recently active are kept, so the record stays small.
 */
export function withState(all: LockoutBySource | undefined, source: string, state: LockoutState, now: Date): LockoutBySource {
  const since = now.getTime() - FAILURE_WINDOW_MS;
  const lastActive = (s: LockoutState) =>
    Math.max(0, ...(s.failed_logins ?? []).map((t) => new Date(t).getTime()), s.locked_until ? new Date(s.locked_until).getTime() : 0);
  const entries = Object.entries({ ...(all ?? {}) }).filter(([key]) => key !== source);
  entries.push([source, state]);
  const live = entries.filter(([, s]) => lockedUntil(s, now) || (s.failed_logins ?? []).some((t) => new Date(t).getTime() > since));
  live.sort((a, b) => lastActive(b[1]) - lastActive(a[1]));
  return Object.fromEntries(live.slice(0, MAX_SOURCES));
}
