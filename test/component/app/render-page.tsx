import { useState, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { vi } from 'vitest';
import { AppToaster } from '../../../src/app/app-toaster';
import { AuthContext, type AuthApi } from '../../../src/app/auth/auth-context';
import { CurrentUserContext } from '../../../src/app/current-user';
import type { User } from '../../../shared/entities';
import { PlatformContext } from '../../../src/app/platform-context';
import type { PlatformClient } from '../../../src/platform';

/**
 * Renders one page as the shell would: signed in as `user` (setUser updates it, like the real
 * provider), inside a router at `path` with a stand-in Dashboard route, plus the toaster.
 */
export function renderPage(Page: () => ReactNode, { user, path, client = null }: { user: User; path: string; client?: PlatformClient | null }) {
  const setUserSpy = vi.fn();
  function Shell() {
    const [current, setCurrent] = useState<User>(user);
    const auth: AuthApi = {
      user: current,
      isAuthenticated: true,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: null,
      publicSettings: null,
      offline: false,
      logout: vi.fn(async () => true),
      navigateToLogin: vi.fn(),
      retry: vi.fn(),
      setUser: (u) => {
        setUserSpy(u);
        setCurrent(u);
      },
    };
    return (
      <AuthContext.Provider value={auth}>
        <CurrentUserContext.Provider value={current}>
          <Outlet />
          <AppToaster />
        </CurrentUserContext.Provider>
      </AuthContext.Provider>
    );
  }
  const root = createRootRoute({ component: Shell });
  const router = createRouter({
    routeTree: root.addChildren([
      createRoute({ getParentRoute: () => root, path, component: Page }),
      createRoute({ getParentRoute: () => root, path: '/dashboard', component: () => <h1>Dashboard page</h1> }),
    ]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  const view = render(
    <PlatformContext.Provider value={client}>
      <RouterProvider router={router} />
    </PlatformContext.Provider>,
  );
  return { ...view, router, setUserSpy };
}
