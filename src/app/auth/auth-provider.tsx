import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from 'react';
import type { PlatformClient } from '../../platform';
import type { User } from '../../../shared/entities';
import type * as session from '../../data/session';
import { useSessionFacts } from '../../data/queries/session-facts';
import type * as deviceLock from '../../data/device-lock';
import type { DataContext } from '../../data/provider';
import { AuthContext, INITIAL_AUTH_STATE, type AuthApi, type AuthState } from './auth-context';
import { isTransportFailure } from './auth-errors';
import { runStartup } from './startup';
import { forgetListSearches } from '../../shell-api/list-memory';

/** How long logout waits to learn whether the server answers before treating it as offline. */
const LOGOUT_PROBE_MS = 4000;

/**
 * Whether the platform's logout URL can be loaded: it is a server page, and navigating to it with
 * no connection shows the browser's "no internet" page (issue #9.8). Any HTTP answer counts.
 */
async function serverReachable(client: PlatformClient): Promise<boolean> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), LOGOUT_PROBE_MS);
  });
  const probe = client.getPublicSettings().then(
    () => true,
    (error: unknown) => !isTransportFailure(error),
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A data-layer function with this device's data context already given (its first argument). */
type OnThisDevice<F> = F extends (ctx: DataContext, ...args: infer A) => infer R ? (...args: A) => R : never;
type OnThisDeviceAll<T> = { [K in keyof T]: OnThisDevice<T[K]> };

/** What the provider does to the outside world; each part can be replaced in tests. */
export interface AuthEnvironment {
  getToken(): string | null;
  clearToken(): void;
  appBaseUrl: string;
  navigate(url: string): void;
  reload(): void;
  /** data/session.ts, on this device (browser-environment.ts gives each its data context). */
  session: OnThisDeviceAll<Pick<typeof session, 'getCachedUser' | 'cacheCurrentUser' | 'pendingCountFor' | 'otherUsersWithPendingOps' | 'clearLocalData' | 'lockedVaultOwner'>> &
    Pick<typeof session, 'rememberSessionToEnd' | 'sessionsToEnd' | 'sessionsEnded'>;
  sync: {
    start(args: { client: PlatformClient; user: User }): unknown;
    stop(): unknown;
    /** An administrator revoked this tablet (issue #21.2); returns the unsubscribe. */
    onRevoked?(listener: (reason: string) => void): () => void;
  };
  /** Asks before a logout that leaves `pendingCount` changes behind (S11); true = go ahead. */
  confirmLogout(pendingCount: number): Promise<boolean>;
  /** The device lock (issue #14): the data layer's data/device-lock.ts, on this device. */
  vault: OnThisDeviceAll<Pick<typeof deviceLock, 'openDeviceLock' | 'unlockDevice' | 'chooseDevicePin' | 'lockDevice' | 'deviceLockInfo' | 'forgetSession' | 'isDeviceUnlocked'>> &
    Pick<typeof deviceLock, 'askPinReset' | 'onLockedElsewhere' | 'secondFactorAvailable'>;
  /**
   * Completes a sign-in this page load came back with (issue #21.1): exchanges the one-time code
   * for the token. Resolves true when a fresh password sign-in was completed (the server's key may
   * then open the vault), false when there was none; rejects when the exchange failed. Called once
   * per page load (the code is single use): later calls give the first answer.
   */
  completeSignIn(): Promise<boolean>;
  /** `{appBaseUrl}/login?from_url=…` with a new PKCE challenge (issue #21.1). */
  loginUrl(fromUrl: string): Promise<string>;
  /** The session id of the token in memory, if it says one. */
  sessionIdOf(): string | null;
}

/** Ends the session of the token in memory on the server; remembered for later when it cannot. */
async function endThisSession(client: PlatformClient, env: AuthEnvironment): Promise<void> {
  const sid = env.sessionIdOf();
  if (!env.getToken()) return;
  try {
    await client.auth.endSessions();
  } catch {
    if (sid) env.session.rememberSessionToEnd(sid);
  }
}

/** Sessions an offline logout or an erase could not end: told to the server at the next contact. */
async function endForgottenSessions(client: PlatformClient, env: AuthEnvironment): Promise<void> {
  const ids = env.session.sessionsToEnd();
  if (!ids.length) return;
  try {
    await client.auth.endSessions(ids);
    env.session.sessionsEnded(ids);
  } catch (error) {
    // A 4xx will not get better (an old server without the route): forget them.
    if (!isTransportFailure(error)) env.session.sessionsEnded(ids);
  }
}

export function AuthProvider({ client, env, children }: { client: PlatformClient; env: AuthEnvironment; children: ReactNode }) {
  const [state, setState] = useState<AuthState>(INITIAL_AUTH_STATE);
  const [attempt, setAttempt] = useState(0);
  const syncing = useRef(false);

  /** An administrator revoked this tablet (#21.2): the copy and the sign-in go; the state says why. */
  const eraseRevoked = useCallback(
    async (reason: string): Promise<AuthState> => {
      await env.session.clearLocalData().catch((err: unknown) => console.error('Could not erase this tablet', err));
      env.vault.lockDevice({ everywhere: true });
      env.clearToken();
      return { ...INITIAL_AUTH_STATE, isLoadingAuth: false, isLoadingPublicSettings: false, revoked: reason };
    },
    [env],
  );

  // A fresh password sign-in of this page load opens the vault with the server's key once; after
  // that (a lock, Try again) only the PIN does.
  const freshUnused = useRef(true);

  useEffect(() => {
    let cancelled = false;
    const start = async () => {
      let fresh = false;
      try {
        fresh = (await env.completeSignIn()) && freshUnused.current;
      } catch (error) {
        // The code expired, was used, or the server is out of reach: sign in again (or say offline).
        if (isTransportFailure(error)) return { ...INITIAL_AUTH_STATE, isLoadingAuth: false, isLoadingPublicSettings: false, needsConnection: true };
        console.warn('The sign-in could not be completed', error);
      }
      const result = await runStartup({
        client,
        hasToken: !!env.getToken(),
        lockedOwner: env.session.lockedVaultOwner,
        getCachedUser: env.session.getCachedUser,
        cacheCurrentUser: env.session.cacheCurrentUser,
        onPublicSettings: (publicSettings) => {
          if (!cancelled) setState((s) => ({ ...s, publicSettings, isLoadingPublicSettings: false }));
        },
      });
      if (cancelled) return null;
      // Revoked by an administrator in erase mode: nothing here may be sent or kept.
      if (result.authError?.type === 'device_revoked') return eraseRevoked(result.authError.message);
      let lock: AuthState['lock'] = null;
      let user = result.user;
      if (result.isAuthenticated && user) {
        lock = await env.vault.openDeviceLock({ userId: user.id, fresh }).catch((err: unknown) => {
          console.error('The device lock could not be opened', err);
          return 'locked' as const;
        });
        if (lock === 'unlocked' || lock === 'set-pin') {
          freshUnused.current = false;
          // The key is in memory: the signed-in user is cached sealed (start-up could not before).
          if (!result.offline && env.getToken()) await env.session.cacheCurrentUser(user).catch(() => undefined);
          user = (await env.session.getCachedUser().catch(() => null)) ?? user;
          if (!result.offline) void endForgottenSessions(client, env);
        }
      }
      return { ...result, user, lock, isLoadingAuth: false, isLoadingPublicSettings: false };
    };
    void start().then((next) => {
      if (!cancelled && next) setState(next);
    });
    return () => {
      cancelled = true;
    };
  }, [client, env, attempt, eraseRevoked]);

  const userId = state.user?.id;
  // Other users' changes still waiting on this device (S11): the gate holds the app until they
  // are synced by their owner or discarded by an admin. The cached user follows local profile
  // submissions and pulled approvals, so the guard and ProfileSetup update without a reload.
  const { othersPending, cachedUser } = useSessionFacts(userId, env.session, state.lock);

  // Sync runs for every signed-in user (a coach's profile submission travels through the outbox
  // too) — but not while another user's changes wait here: this user is only shown the S11 gate.
  const othersWaiting = othersPending === undefined || othersPending.length > 0;
  const user = cachedUser ?? state.user;

  // Reads the newest user without making profile edits a reason to restart sync.
  const startSync = useEffectEvent(() => {
    if (!user) return;
    syncing.current = true;
    try {
      Promise.resolve(env.sync.start({ client, user })).catch((err: unknown) => console.error('Sync could not start', err));
    } catch (err) {
      console.error('Sync could not start', err);
    }
  });
  // Only a new identity (or client, environment) starts sync; profile edits of the same user do not.
  // Nor while the device is locked: the engine cannot read or write personal fields then (#14).
  const unlocked = state.lock === 'unlocked';
  useEffect(() => {
    if (!state.isAuthenticated || !userId || othersWaiting || !unlocked || syncing.current) return;
    startSync();
  }, [state.isAuthenticated, userId, othersWaiting, unlocked, client, env]);

  const stopSync = useCallback(async () => {
    try {
      await env.sync.stop();
    } catch (err) {
      console.error('Sync did not stop cleanly', err);
    }
    syncing.current = false;
  }, [env]);

  // Revoked while running (learnt by the sync runtime): what could be sent was sent; erase, say why.
  useEffect(
    () =>
      env.sync.onRevoked?.((reason) => {
        void stopSync()
          .then(() => eraseRevoked(reason))
          .then(setState);
      }),
    [env, stopSync, eraseRevoked],
  );

  const lock = useCallback(
    (everywhere: boolean) => {
      // The key goes at once; sync stops with it (it could neither read nor write personal fields),
      // and the sign-in leaves memory as soon as its last request is done (issue #21.1).
      env.vault.lockDevice({ everywhere });
      forgetListSearches();
      setState((s) => (s.lock === 'unlocked' || s.lock === 'set-pin' ? { ...s, lock: 'locked' } : s));
      void stopSync().then(() => {
        if (!env.vault.isDeviceUnlocked()) env.clearToken();
      });
    },
    [env, stopSync],
  );
  const lockNow = useCallback(() => lock(true), [lock]);
  const lockIdle = useCallback(() => lock(false), [lock]);
  // Lock pressed in another tab of this device locks this one too.
  useEffect(() => env.vault.onLockedElsewhere(() => lock(false)), [env, lock]);

  const unlock = useCallback<AuthApi['unlock']>(
    async (pin) => {
      const result = await env.vault.unlockDevice(pin);
      // The key and the sealed sign-in are in memory: start-up runs again with them (the server is
      // asked who this is, as at any start; offline, the cached user opens the app).
      if (result.ok) setAttempt((n) => n + 1);
      return result;
    },
    [env],
  );

  const setPin = useCallback<AuthApi['setPin']>(
    async (pin, options) => {
      await env.vault.chooseDevicePin(pin, options);
      setState((s) => ({ ...s, lock: 'unlocked' }));
    },
    [env],
  );

  const goToSignIn = useCallback(() => {
    const from = window.location.href;
    void env.loginUrl(from).then(
      (url) => env.navigate(url),
      () => env.navigate(`${env.appBaseUrl}/login?from_url=${encodeURIComponent(from)}`),
    );
  }, [env]);

  const leaveForSignIn = useCallback(() => {
    env.clearToken();
    setState(INITIAL_AUTH_STATE);
    goToSignIn();
  }, [env, goToSignIn]);

  const forgotPin = useCallback(() => {
    // The data stays sealed here; a fresh password sign-in brings the server's key, which opens it.
    env.vault.askPinReset();
    leaveForSignIn();
  }, [env, leaveForSignIn]);

  const navigateToLogin = goToSignIn;

  const logout = useCallback<AuthApi['logout']>(
    async ({ redirect = true, redirectTo } = {}) => {
      const current = state.user;
      // Ask first, while sync still runs: changes not yet on the server are never dropped silently.
      // A count that cannot be read counts as one: better a needless question than a silent wipe.
      const mine = current ? await env.session.pendingCountFor(current.id).catch(() => 1) : 0;
      if (!(await env.confirmLogout(mine))) return false;
      await stopSync();
      // Personal data of justice-involved people must not stay on a shared tablet — unless some
      // change (this user's or another's) still lives only here; then the copy stays (S11).
      const others = await env.session.otherUsersWithPendingOps(current?.id ?? '').catch(() => ['unknown']);
      if (mine === 0 && others.length === 0) {
        await env.session.clearLocalData().catch((err: unknown) => console.error('Could not clear local data', err));
      }
      else await env.vault.forgetSession();
      // The server ends this sign-in now, or at the next contact when it cannot be reached (#21.2).
      await endThisSession(client, env);
      // A copy kept for pending changes stays sealed: its key leaves memory with the user.
      env.vault.lockDevice({ everywhere: true });
      env.clearToken();
      // Back to the loading state: the page is about to leave, and the gate must not start a
      // second navigation (to login) that would race the logout redirect.
      setState(INITIAL_AUTH_STATE);
      // Offline, the reload is served by the service worker and start-up shows the signed-out
      // screen ('sign-in needs a connection'); the logout URL would be the browser's error page.
      if (redirect && (await serverReachable(client))) env.navigate(client.auth.logoutUrl(redirectTo ?? window.location.href));
      else env.reload();
      return true;
    },
    [client, env, state.user, stopSync],
  );

  const api = useMemo<AuthApi>(
    () => ({
      ...state,
      user,
      othersPending,
      logout,
      navigateToLogin,
      setUser: (user) => setState((s) => ({ ...s, user })),
      retry: () => {
        setState(INITIAL_AUTH_STATE);
        setAttempt((n) => n + 1);
      },
      unlock,
      setPin,
      lockNow,
      lockIdle,
      forgotPin,
      afterWipe: leaveForSignIn,
      lockInfo: env.vault.deviceLockInfo,
      secondFactorAvailable: env.vault.secondFactorAvailable,
    }),
    [state, user, othersPending, logout, navigateToLogin, unlock, setPin, lockNow, lockIdle, forgotPin, leaveForSignIn, env.vault.deviceLockInfo, env.vault.secondFactorAvailable],
  );

  return <AuthContext.Provider value={api}>{children}</AuthContext.Provider>;
}
