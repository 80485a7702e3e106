import { useState, type ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  type AnyRouter,
  useRouterState,
} from '@tanstack/react-router';
import { Toaster } from 'sonner';
import { vi } from 'vitest';
import { AuthContext, type AuthApi } from '../../src/app/auth/auth-context';
import { CurrentUserProvider } from '../../src/shell-api/current-user';
import { PAGES, pagePath, type PageName } from '../../src/shell-api/paths';
import { parseSearch, stringifySearch } from '../../src/app/search-params';
import { ROUTE_ERROR_OPTIONS } from '../../src/app/route-error';
import { db } from '../../src/data/db';
import type { DataContext } from '../../src/data/context';
import { DataProvider } from '../../src/data/provider';
import type { User } from '../../shared/entities';
import { makeDevice } from '../support/device';
import { forgetRememberedQueries } from '../../src/data/queries/remembered';
import { INITIAL_STATUS } from '../../src/data/sync/status-store';
import { SYNC_STATUS_KEY } from '../../src/data/sync/types';

/**
 * Renders one page the way the app does — inside a TanStack router, the auth context (its setUser
 * updates the signed-in user, like the real provider, and is spied as `setUserSpy`), the
 * CurrentUserProvider and a sonner Toaster — so component tests can follow links and see toasts. Every other page of spec
 * 2.1 is a route too and renders `Now on {Page}` (plus its ?id=), so a test can assert where a
 * link or a navigate() went: `await screen.findByText('Now on Participants')` or
 * `router.state.location`.
 *
 *   const { router } = await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
 */
export const COACH: User = {
  id: 'user-coach',
  email: 'coach@example.org',
  full_name: 'Casey Coach',
  role: 'user',
  approved: true,
  requested_access_date: '2025-01-02',
};

export const ADMIN: User = { id: 'user-admin', email: 'admin@example.org', full_name: 'Avery Admin', role: 'admin', approved: true };

export interface RenderPageOptions {
  /** The page the element is (its route renders the element). */
  at: PageName;
  /** The ?id= of a detail page. */
  id?: string;
  /** The signed-in user; an approved coach by default. */
  user?: User | null;
  /** More query parameters of the start URL (e.g. AddCohort's ?program_id=). */
  search?: Record<string, string>;
  /**
   * The data context the page renders on: a test's own device (test/support/device.ts), e.g. over
   * a database of its own; the page device over the app's database (pageData()) by default. Its
   * signed-in user is set to `user`, as the runtime does after sign-in.
   */
  data?: DataContext;
}

/** The default device pages render on: the app's database (what the tests seed); new at each clearDb(). */
let pageDevice = makeDevice({ db, userId: null, now: () => Date.now() });

/** The page device's data context: a test gives it a platform client (or a uuid source) before rendering. */
export function pageData(): DataContext {
  return pageDevice.data;
}

export async function renderPage(
  element: ReactNode,
  { at, id, user = COACH, search, data = pageDevice.data }: RenderPageOptions,
): Promise<RenderResult & { router: AnyRouter; setUserSpy: ReturnType<typeof vi.fn>; data: DataContext }> {
  const setUserSpy = vi.fn();
  function Shell() {
    const [current, setCurrent] = useState<User | null>(user);
    const auth: AuthApi = {
      user: current,
      isAuthenticated: current !== null,
      isLoadingAuth: false,
      isLoadingPublicSettings: false,
      authError: null,
      publicSettings: null,
      offline: false,
      lock: 'unlocked',
      logout: vi.fn(async () => true),
      navigateToLogin: vi.fn(),
      retry: vi.fn(),
      unlock: vi.fn(async () => ({ ok: true as const })),
      setPin: vi.fn(async () => undefined),
      lockNow: vi.fn(),
      lockIdle: vi.fn(),
      forgotPin: vi.fn(),
      afterWipe: vi.fn(),
      secondFactorAvailable: vi.fn(async () => false),
      lockInfo: vi.fn(async () => ({ policy: { pin_min_length: 8, idle_lock_minutes: 15 }, failedAttempts: 0, retryAt: null, pending: 0, pendingKinds: [], pinDestroyed: false, owner: null })),
      setUser: (u) => {
        setUserSpy(u);
        setCurrent(u);
      },
    };
    return (
      <AuthContext.Provider value={auth}>
        <CurrentUserProvider user={current} setUser={auth.setUser}>
          <Outlet />
          <Toaster />
        </CurrentUserProvider>
      </AuthContext.Provider>
    );
  }
  const root = createRootRoute({ component: Shell });
  const routes = PAGES.map((page) =>
    createRoute({
      getParentRoute: () => root,
      path: pagePath(page),
      component: page === at ? () => <>{element}</> : () => <OtherPage page={page} />,
    }),
  );
  const home = createRoute({ getParentRoute: () => root, path: '/', component: () => <OtherPage page="Dashboard" /> });
  const start = pagePath(at) + stringifySearch({ ...(id === undefined ? {} : { id }), ...search });
  const router = createRouter({
    routeTree: root.addChildren([home, ...routes]),
    history: createMemoryHistory({ initialEntries: [start] }),
    // As the app's router (src/app/routes.tsx): ids stay strings, paths match case-insensitively,
    // and a page that throws shows the route's error state (issue #27).
    parseSearch,
    stringifySearch,
    caseSensitive: false,
    ...ROUTE_ERROR_OPTIONS,
  });
  // A tablet that finished its first sync (issue #9.5), unless the test stored a status itself:
  // the mirror's rows are then the whole truth and pages show them as they are.
  if (!(await db.meta.get(SYNC_STATUS_KEY))) {
    await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, firstSyncComplete: true } });
  }
  // Commands stamp ops with the signed-in user (S11), as the runtime does after sign-in.
  data.userId = user?.id ?? null;
  // Resolve the route first so the page renders in the first commit: a test can then see the
  // loading skeleton before any live query has answered.
  await router.load();
  const view = render(
    <DataProvider value={data}>
      <RouterProvider router={router} />
    </DataProvider>,
  );
  return { router, setUserSpy, data, ...view };
}

function OtherPage({ page }: { page: PageName }) {
  const id = useRouterState({ select: (s) => (s.location.search as { id?: unknown }).id });
  return (
    <p>
      Now on {page}
      {id !== undefined && ` (id ${String(id)})`}
    </p>
  );
}

/** Empties every table of the app database (mirror, outbox, aliases, …) between tests. */
export async function clearDb(): Promise<void> {
  pageDevice = makeDevice({ db, userId: null, now: () => Date.now() });
  await Promise.all(db.tables.map((t) => t.clear()));
  forgetRememberedQueries();
}
