import { Suspense, useEffect } from 'react';
import type { PlatformClient } from '../platform';
import { DataProvider, type DataContext } from '../data/provider';
import { AuthGate } from './auth/auth-gate';
import { AuthProvider, type AuthEnvironment } from './auth/auth-provider';
import { PlatformContext } from './platform-context';
import { shellParts } from './screens';
import type { AppRouter } from './routes';
import { ShellSlotsContext, type ShellSlots } from './shell-slots';
import { FIRST_PAGE_FALLBACK_MS, markFirstPageShown, useFirstPageShown } from '../shell-api/first-page';
import { LoadingScreen } from './auth/loading-screen';
import { AppErrorBoundary } from './app-error-boundary';

/**
 * The whole shell: this device's data context, platform client, start-up and auth gate, the router
 * with layout and pages, and the toaster. Everything from outside (data context, client,
 * environment, a router on a memory history) comes in as props, so tests render the real shell
 * against a fake server; without a router, the app's pages use one on the browser's history
 * (src/app/app-routes.tsx).
 */
export function App({
  data,
  client,
  env,
  router,
  slots = {},
}: {
  data: DataContext;
  client: PlatformClient;
  env: AuthEnvironment;
  router?: AppRouter;
  slots?: ShellSlots;
}) {
  const firstPageShown = useFirstPageShown();
  useEffect(() => {
    const fallback = window.setTimeout(markFirstPageShown, FIRST_PAGE_FALLBACK_MS);
    return () => window.clearTimeout(fallback);
  }, []);
  return (
    // A render error outside any page (a page's own is RouteError's, in the shell) still shows a way back.
    <AppErrorBoundary>
      <DataProvider value={data}>
        <PlatformContext.Provider value={client}>
          <ShellSlotsContext.Provider value={slots}>
            <AuthProvider client={client} env={env}>
              <AuthGate>
                {/* The router and the route table (its own chunk): the app's pages, once the gate opens. */}
                <Suspense fallback={<LoadingScreen />}>
                  <shellParts.AppRoutes router={router} />
                </Suspense>
              </AuthGate>
              {/* Its own chunk (sonner), fetched once the first page is on screen; toasts come from later
                  actions. Inside the auth provider: no toasts while the app is locked (issue #23.9). */}
              {firstPageShown && <shellParts.Toaster />}
            </AuthProvider>
          </ShellSlotsContext.Provider>
        </PlatformContext.Provider>
      </DataProvider>
    </AppErrorBoundary>
  );
}
