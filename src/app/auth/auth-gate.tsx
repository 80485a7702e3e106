import { Suspense, useEffect, useEffectEvent, type ReactNode } from 'react';
import { CurrentUserProvider } from '../../shell-api/current-user';
import { useAuth } from './auth-context';
import { LoadingScreen } from './loading-screen';
import { StartupError } from './startup-error';
import { RevokedScreen, SetPinScreen, UnlockScreen } from './device-lock-screens';
import { IdleLock } from './idle-lock';
import { shellParts } from '../screens';
import { markFirstPageShown } from '../../shell-api/first-page';

/**
 * Renders what start-up decided (spec.md 2.3, 8): a spinner while loading, the login redirect for
 * auth_required (and for a visitor with no token), Access Restricted for user_not_registered, an
 * error screen for anything else — and otherwise the app, with the user in CurrentUserProvider.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const loading = auth.isLoadingPublicSettings || auth.isLoadingAuth;
  const type = auth.authError?.type;
  const goToLogin =
    !loading && !auth.revoked && !auth.isAuthenticated && !auth.needsConnection && (type === 'auth_required' || (!auth.authError && !auth.userLoadError));

  const navigateToLogin = useEffectEvent(() => auth.navigateToLogin());
  // Once per decision: a re-render with the same decision must not navigate again.
  useEffect(() => {
    if (goToLogin) navigateToLogin();
  }, [goToLogin]);

  // Another account's data was here, and its waiting changes are gone now (an administrator
  // discarded them, which erased the device copy): start again, which gives this user a vault.
  const reopen = auth.lock === 'other-user' && auth.othersPending !== undefined && auth.othersPending.length === 0;
  const retry = useEffectEvent(() => auth.retry());
  useEffect(() => {
    if (reopen) retry();
  }, [reopen]);

  if (loading) return <LoadingScreen />;
  if (auth.revoked) {
    return (
      <ShownInsteadOfApp>
        <RevokedScreen reason={auth.revoked} />
      </ShownInsteadOfApp>
    );
  }
  // /login is the server's page: offline it would be the browser's "no internet" page (issue #9.8).
  if (auth.needsConnection && !auth.isAuthenticated) {
    return (
      <ShownInsteadOfApp>
        <shellParts.SignedOutOffline onRetry={auth.retry} />
      </ShownInsteadOfApp>
    );
  }
  if (goToLogin) return <LoadingScreen label="Redirecting to sign in…" />;
  if (type === 'user_not_registered') {
    return (
      <ShownInsteadOfApp>
        <shellParts.AccessRestricted onLogout={() => void auth.logout()} />
      </ShownInsteadOfApp>
    );
  }
  if (!auth.isAuthenticated || !auth.user) {
    return (
      <ShownInsteadOfApp>
        <StartupError
          message={auth.authError?.message || auth.userLoadError || 'An unexpected error occurred'}
          onRetry={auth.retry}
          onLogout={() => void auth.logout()}
        />
      </ShownInsteadOfApp>
    );
  }
  if (auth.othersPending === undefined) return <LoadingScreen />;
  if (auth.othersPending.length > 0) {
    // Its own live query follows the discard; ours does too, and then the app opens.
    return (
      <ShownInsteadOfApp>
        <shellParts.PendingOtherUserGate user={auth.user} onSignOut={() => void auth.logout()} onClear={() => undefined} />
      </ShownInsteadOfApp>
    );
  }
  // Issue #14: nothing of the app (or of the data) renders until this device is unlocked.
  if (auth.lock === 'locked') {
    return (
      <ShownInsteadOfApp>
        <UnlockScreen />
      </ShownInsteadOfApp>
    );
  }
  if (auth.lock === 'set-pin') {
    return (
      <ShownInsteadOfApp>
        {/* The key is in memory while a PIN is chosen: the idle lock applies here too (#21.3). */}
        <IdleLock />
        <SetPinScreen />
      </ShownInsteadOfApp>
    );
  }
  if (auth.lock !== 'unlocked') return <LoadingScreen />;
  return (
    <CurrentUserProvider user={auth.user} setUser={auth.setUser}>
      <IdleLock />
      {children}
    </CurrentUserProvider>
  );
}

/**
 * A screen shown instead of the app (some come from their own chunk: the loading screen until it
 * is there). Once it is on screen it is the first page too; the app's own is the router's first render.
 */
function ShownInsteadOfApp({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <FirstPageShown />
      {children}
    </Suspense>
  );
}

function FirstPageShown() {
  useEffect(() => markFirstPageShown(), []);
  return null;
}
