/**
 * Page names and their paths (spec 2.1): '/' + the page name in lower case, spaces → '-'.
 * Detail pages take `?id=`. One place builds every in-app URL.
 */
export const PAGES = [
  'Dashboard',
  'Participants',
  'AddParticipant',
  'ParticipantDetail',
  'Cohorts',
  'AddCohort',
  'CohortDetail',
  'ProgramsSites',
  'ProgramDetail',
  'SiteDetail',
  'ProfileSetup',
  'AdminApprovals',
  'TakeAttendance',
  // Issue #23.6: a session's roster on paper, for days the tablet cannot come into the room.
  'SignInSheet',
  // Issue #26: the audit trail, for administrators (/audit).
  'Audit',
] as const;

export type PageName = (typeof PAGES)[number];

export function pagePath(page: PageName): string {
  return '/' + page.toLowerCase().replace(/ /g, '-');
}

/** The full URL of a page, with `?id=` for detail pages. */
export function pageUrl(page: PageName, id?: string): string {
  const path = pagePath(page);
  return id === undefined ? path : `${path}?id=${encodeURIComponent(id)}`;
}

/** The page a path names (case-insensitive), or null; '/' is the Dashboard. */
export function pageOfPath(pathname: string): PageName | null {
  const p = pathname.replace(/\/+$/, '').toLowerCase();
  if (p === '') return 'Dashboard';
  return PAGES.find((name) => pagePath(name) === p) ?? null;
}
