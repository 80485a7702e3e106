import { useEffect } from 'react';
import { RouterProvider } from '@tanstack/react-router';
import type { PlatformClient } from '../platform';
import { AuthGate } from './auth/auth-gate';
import { AuthProvider, type AuthEnvironment } from './auth/auth-provider';
import { PlatformContext } from './platform-context';
import { shellParts } from './screens';
import type { AppRouter } from './routes';
import { ShellSlotsContext, type ShellSlots } from './shell-slots';
import { FIRST_PAGE_FALLBACK_MS, markFirstPageShown, useFirstPageShown } from './first-page';

/**
 * The whole shell: platform client, start-up and auth gate, the router with layout and pages, and
 * the toaster. Everything from outside (client, environment, router history) comes in as props,
 * so tests render the real shell against a fake server.
 */
export function App({ client, env, router, slots = {} }: { client: PlatformClient; env: AuthEnvironment; router: AppRouter; slots?: ShellSlots }) {
  const firstPageShown = useFirstPageShown();
  useEffect(() => {
    const stop = router.subscribe('onRendered', () => markFirstPageShown());
    const fallback = window.setTimeout(markFirstPageShown, FIRST_PAGE_FALLBACK_MS);
    return () => {
      stop();
      window.clearTimeout(fallback);
    };
  }, [router]);
  return (
    <PlatformContext.Provider value={client}>
      <ShellSlotsContext.Provider value={slots}>
        <AuthProvider client={client} env={env}>
          <AuthGate>
            <RouterProvider router={router} />
          </AuthGate>
        </AuthProvider>
        {/* Its own chunk (sonner), fetched once the first page is on screen; toasts come from later actions. */}
        {firstPageShown && <shellParts.Toaster />}
      </ShellSlotsContext.Provider>
    </PlatformContext.Provider>
  );
}
