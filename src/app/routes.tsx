import {
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  useRouterState,
  type RouterHistory,
} from '@tanstack/react-router';
import type { LazyScreen } from './lazy-screen';
import { screens } from './screens';
import { SYNC_PATH } from '../pwa/sync-path';
import { useAuth } from './auth/auth-context';
import { pagePath, type PageName } from '../shell-api/paths';
import { usePlatform } from './platform-context';
import { idSearch, parseSearch, stringifySearch } from './search-params';
import { NavigationTracker } from './tracking/navigation-tracker';
import { ROUTE_ERROR_OPTIONS } from './route-error';

/** Above every route: logs each page a signed-in user opens (NavigationTracker). */
function Root() {
  const { isAuthenticated } = useAuth();
  const client = usePlatform();
  return (
    <>
      <NavigationTracker isAuthenticated={isAuthenticated} logPage={client.appLogs.logUserInApp} />
      <Outlet />
    </>
  );
}

/** What the routes show: every screen of src/app/screens.ts, each loaded from its own chunk. */
export type RouteScreens = typeof screens;

/**
 * The route table of spec.md 2.1, code-based: '/' + page name in lower case, matched
 * case-insensitively (the router's default), `?id=` for detail pages, and the 404 screen for
 * anything else — inside the app shell (issue #12.8; the reference product showed it bare).
 *
 * Over `s`: screens.ts, or with simpler components standing in for some (createAppRouter).
 */
function routeTreeOf(s: RouteScreens) {
  function NotFoundRoute({ inShell = false }: { inShell?: boolean }) {
    const pathname = useRouterState({ select: (st) => st.location.pathname });
    // The reference screen names the path without its leading '/'.
    return <s.NotFound path={decodeURIComponent(pathname.replace(/^\//, ''))} inShell={inShell} />;
  }

  const rootRoute = createRootRoute({ component: Root, notFoundComponent: () => <NotFoundRoute /> });
  const layoutRoute = createRoute({ getParentRoute: () => rootRoute, id: 'layout', component: s.Layout, wrapInSuspense: true });

  // The router awaits a component's `preload` before it shows the route, so the page a coach
  // leaves stays on screen until the next one's chunk is there.
  function page(name: PageName, component: LazyScreen<object>) {
    return createRoute({ getParentRoute: () => layoutRoute, path: pagePath(name), component, wrapInSuspense: true });
  }

  function detailPage(name: PageName, Detail: LazyScreen<{ id: string }>) {
    function DetailRoute() {
      const { id } = route.useSearch();
      // Keyed by id: moving between two records of one kind starts the page afresh.
      return <Detail key={id} id={id} />;
    }
    DetailRoute.preload = Detail.preload;
    const route = createRoute({
      getParentRoute: () => layoutRoute,
      path: pagePath(name),
      validateSearch: idSearch,
      component: DetailRoute,
      wrapInSuspense: true,
    });
    return route;
  }

  return rootRoute.addChildren([
    layoutRoute.addChildren([
      createRoute({ getParentRoute: () => layoutRoute, path: '/', component: s.Dashboard, wrapInSuspense: true }),
      page('Dashboard', s.Dashboard),
      page('Participants', s.Participants),
      page('AddParticipant', s.AddParticipant),
      detailPage('ParticipantDetail', s.ParticipantDetail),
      page('Cohorts', s.Cohorts),
      page('AddCohort', s.AddCohort),
      detailPage('CohortDetail', s.CohortDetail),
      page('ProgramsSites', s.ProgramsSites),
      detailPage('ProgramDetail', s.ProgramDetail),
      detailPage('SiteDetail', s.SiteDetail),
      page('ProfileSetup', s.ProfileSetup),
      page('AdminApprovals', s.AdminApprovals),
      // Issue #23: a session's roster to take its attendance (?id= of the session) …
      detailPage('TakeAttendance', s.TakeAttendance),
      // … and the same roster on paper (SignInSheet), for days the tablet stays outside.
      detailPage('SignInSheet', s.SignInSheet),
      // Issue #26: the audit trail, administrators only (the page refuses anyone else, and so does the server).
      page('Audit', s.Audit),
      // Passage's own page (not in spec 2.1): what is waiting to sync, refused, or in conflict.
      createRoute({ getParentRoute: () => layoutRoute, path: SYNC_PATH, component: s.Sync, wrapInSuspense: true }),
      // Any other path: the 404 screen inside the app shell, so the sidebar and header stay (issue #12.8).
      createRoute({ getParentRoute: () => layoutRoute, path: '$', component: () => <NotFoundRoute inShell />, wrapInSuspense: true }),
    ]),
  ]);
}

/** The app's route table, made once on first use. */
let appRouteTree: ReturnType<typeof routeTreeOf> | undefined;

/**
 * The app's router, on the browser's history unless given one. `screens` stands other components
 * in for some screens (the shell's component tests: routing, layout and guards without the real
 * pages), passed in rather than mocked so those tests share their worker's modules (docs/design.md,
 * house style).
 */
export function createAppRouter(options: { history?: RouterHistory; screens?: Partial<RouteScreens> } = {}) {
  const routeTree = options.screens ? routeTreeOf({ ...screens, ...options.screens }) : (appRouteTree ??= routeTreeOf(screens));
  return createRouter({
    routeTree,
    history: options.history,
    caseSensitive: false,
    notFoundMode: 'root',
    parseSearch,
    stringifySearch,
    defaultPreload: false,
    scrollRestoration: true,
    // A page that throws shows RouteError in its place, inside the shell, with Try again (issue #27).
    ...ROUTE_ERROR_OPTIONS,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
