import { lazyPart, lazyScreen } from './lazy-screen';

/**
 * Every screen, each in its own chunk (issue #11.6). The first page loads only its own; right
 * after it rendered, `preloadScreens()` brings the rest into memory so that a coach who loses the
 * connection before the service worker controls the page can still open every screen (the
 * reason an earlier attempt at lazy screens was reverted). Once the worker controls the page, the
 * chunks come from its precache. src/pwa/offline-readiness.ts tells the coach when both are done.
 */
export const screens = {
  /** Sidebar + header around every page: not needed by a first page that is the PIN screen. */
  Layout: lazyScreen(() => import('./layout/app-layout').then((m) => m.AppLayout)),
  Dashboard: lazyScreen(() => import('../screens/dashboard/dashboard-page').then((m) => m.DashboardPage)),
  Participants: lazyScreen(() => import('../screens/participants/participants-page').then((m) => m.ParticipantsPage)),
  AddParticipant: lazyScreen(() => import('../screens/add-participant/add-participant-page').then((m) => m.AddParticipantPage)),
  ParticipantDetail: lazyScreen(() => import('../screens/participant-detail/participant-detail-page').then((m) => m.ParticipantDetailPage)),
  Cohorts: lazyScreen(() => import('../screens/cohorts/cohorts-page').then((m) => m.CohortsPage)),
  AddCohort: lazyScreen(() => import('../screens/add-cohort/add-cohort-page').then((m) => m.AddCohortPage)),
  CohortDetail: lazyScreen(() => import('../screens/cohort-detail/cohort-detail-page').then((m) => m.CohortDetailPage)),
  ProgramsSites: lazyScreen(() => import('../screens/programs-sites/programs-sites-page').then((m) => m.ProgramsSitesPage)),
  ProgramDetail: lazyScreen(() => import('../screens/program-detail/program-detail-page').then((m) => m.ProgramDetailPage)),
  SiteDetail: lazyScreen(() => import('../screens/site-detail/site-detail-page').then((m) => m.SiteDetailPage)),
  ProfileSetup: lazyScreen(() => import('../screens/profile-setup/profile-setup-page').then((m) => m.ProfileSetupPage)),
  AdminApprovals: lazyScreen(() => import('../screens/admin-approvals/admin-approvals-page').then((m) => m.AdminApprovalsPage)),
  TakeAttendance: lazyScreen(() => import('../screens/take-attendance/take-attendance-page').then((m) => m.TakeAttendancePage)),
  SignInSheet: lazyScreen(() => import('../screens/sign-in-sheet/sign-in-sheet-page').then((m) => m.SignInSheetPage)),
  Audit: lazyScreen(() => import('../screens/audit/audit-page').then((m) => m.AuditPage)),
  NotFound: lazyScreen(() => import('../screens/not-found/not-found-page').then((m) => m.NotFoundPage)),
  Sync: lazyScreen(() => import('../screens/sync/sync-page').then((m) => m.SyncPage)),
};

/**
 * Parts of the shell kept out of the first page's JavaScript for the same reason: the router (a
 * PIN screen does not need it), the toaster (sonner) once the first page is on screen
 * (src/app/first-page.ts), the header's status after the page around it, and the headlessui
 * dialogs, which are rare (the mobile panel on narrow screens, another user's pending changes).
 * The toaster, mobile panel and header status show nothing until they arrive; the router and the
 * screens shown instead of the app show the loading screen, or "not on this device yet" with Try again.
 */
export const shellParts = {
  /** The router and its route table (src/app/app-routes.tsx): not needed by the PIN screens. */
  AppRoutes: lazyScreen(() => import('./app-routes').then((m) => m.AppRoutes)),
  Toaster: lazyPart(() => import('./app-toaster').then((m) => m.AppToaster)),
  MobileSidebar: lazyPart(() => import('./layout/mobile-sidebar').then((m) => m.MobileSidebar)),
  /**
   * The header's status slot (set in src/main.tsx): "ready to work offline" and the sync chip.
   * Not awaited by the layout: it mounts once the page around it is on screen (from the precache
   * on a returning start, a few milliseconds later), so the first page does not wait for it.
   */
  HeaderStatus: lazyPart(() => import('../pwa/header-status').then((m) => m.HeaderStatus)),
  /** Rare first pages (spec 2.3 Access Restricted; signed out with no connection, issue #9.8). */
  AccessRestricted: lazyScreen(() => import('./auth/access-restricted').then((m) => m.AccessRestricted)),
  SignedOutOffline: lazyScreen(() => import('./auth/signed-out-offline').then((m) => m.SignedOutOffline)),
  PendingOtherUserGate: lazyScreen(() => import('../pwa/pending-other-user-gate').then((m) => m.PendingOtherUserGate)),
};

/** Modules imported on demand elsewhere (the logout warning, src/pwa/confirm-logout.tsx), loaded here ahead of need. */
const onDemand: Array<() => Promise<unknown>> = [() => import('../pwa/logout-confirm-dialog'), () => import('sonner')];

/** Loads every screen's and shell part's chunk (each at most once); resolves true when all are in memory. Never rejects. */
export async function preloadScreens(): Promise<boolean> {
  const results = await Promise.all([
    ...[...Object.values(screens), ...Object.values(shellParts)].map((part) => part.load()),
    ...onDemand.map((load) =>
      load().then(
        () => true,
        () => false,
      ),
    ),
  ]);
  return results.every(Boolean);
}
