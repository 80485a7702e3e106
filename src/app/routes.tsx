import {
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  useRouterState,
  type RouterHistory,
} from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { DashboardPage } from '../screens/dashboard/dashboard-page';
import { ParticipantsPage } from '../screens/participants/participants-page';
import { AddParticipantPage } from '../screens/add-participant/add-participant-page';
import { ParticipantDetailPage } from '../screens/participant-detail/participant-detail-page';
import { CohortsPage } from '../screens/cohorts/cohorts-page';
import { AddCohortPage } from '../screens/add-cohort/add-cohort-page';
import { CohortDetailPage } from '../screens/cohort-detail/cohort-detail-page';
import { ProgramsSitesPage } from '../screens/programs-sites/programs-sites-page';
import { ProgramDetailPage } from '../screens/program-detail/program-detail-page';
import { SiteDetailPage } from '../screens/site-detail/site-detail-page';
import { ProfileSetupPage } from '../screens/profile-setup/profile-setup-page';
import { AdminApprovalsPage } from '../screens/admin-approvals/admin-approvals-page';
import { NotFoundPage } from '../screens/not-found/not-found-page';
import { SyncPage } from '../screens/sync/sync-page';
import { SYNC_PATH } from '../pwa/sync-indicator';
import { useAuth } from './auth/auth-context';
import { AppLayout } from './layout/app-layout';
import { pagePath, type PageName } from './paths';
import { usePlatform } from './platform-context';
import { idSearch, parseSearch, stringifySearch } from './search-params';
import { NavigationTracker } from './tracking/navigation-tracker';

/**
 * The route table of spec.md 2.1, code-based: '/' + page name in lower case, matched
 * case-insensitively (the router's default), `?id=` for detail pages, and the 404 screen for
 * anything else — inside the app shell (issue #12.8; the reference product showed it bare).
 */
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

function NotFoundRoute({ inShell = false }: { inShell?: boolean }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // The reference screen names the path without its leading '/'.
  return <NotFoundPage path={decodeURIComponent(pathname.replace(/^\//, ''))} inShell={inShell} />;
}

const rootRoute = createRootRoute({ component: Root, notFoundComponent: () => <NotFoundRoute /> });
const layoutRoute = createRoute({ getParentRoute: () => rootRoute, id: 'layout', component: AppLayout });

function page(name: PageName, component: () => ReactNode) {
  return createRoute({ getParentRoute: () => layoutRoute, path: pagePath(name), component });
}

function detailPage(name: PageName, Detail: (props: { id: string }) => ReactNode) {
  const route = createRoute({
    getParentRoute: () => layoutRoute,
    path: pagePath(name),
    validateSearch: idSearch,
    component: function DetailRoute() {
      const { id } = route.useSearch();
      // Keyed by id: moving between two records of one kind starts the page afresh.
      return <Detail key={id} id={id} />;
    },
  });
  return route;
}

const routeTree = rootRoute.addChildren([
  layoutRoute.addChildren([
    createRoute({ getParentRoute: () => layoutRoute, path: '/', component: DashboardPage }),
    page('Dashboard', DashboardPage),
    page('Participants', ParticipantsPage),
    page('AddParticipant', AddParticipantPage),
    detailPage('ParticipantDetail', ParticipantDetailPage),
    page('Cohorts', CohortsPage),
    page('AddCohort', AddCohortPage),
    detailPage('CohortDetail', CohortDetailPage),
    page('ProgramsSites', ProgramsSitesPage),
    detailPage('ProgramDetail', ProgramDetailPage),
    detailPage('SiteDetail', SiteDetailPage),
    page('ProfileSetup', ProfileSetupPage),
    page('AdminApprovals', AdminApprovalsPage),
    // Passage's own page (not in spec 2.1): what is waiting to sync, refused, or in conflict.
    createRoute({ getParentRoute: () => layoutRoute, path: SYNC_PATH, component: SyncPage }),
    // Any other path: the 404 screen inside the app shell, so the sidebar and header stay (issue #12.8).
    createRoute({ getParentRoute: () => layoutRoute, path: '$', component: () => <NotFoundRoute inShell /> }),
  ]),
]);

export function createAppRouter(options: { history?: RouterHistory } = {}) {
  return createRouter({
    routeTree,
    history: options.history,
    caseSensitive: false,
    notFoundMode: 'root',
    parseSearch,
    stringifySearch,
    defaultPreload: false,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
