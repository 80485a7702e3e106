/**
 * Pure rules of the first-sync states (the hook is first-sync.ts): whether a page may present the
 * mirror's data as the whole truth (issue #9.5). Until every entity a page reads has completed its
 * first pull, an empty list means "not here yet", not "none": the page shows its skeletons and a
 * progress line, or — offline — says that not all data is on this tablet yet, and never
 * "0 participants" with an Add button.
 */
import type { SyncStatus } from './sync-status';
import type { EntityFirstSync } from '../sync/types';
import type { EntityName } from '../../../shared/entities';

/** A page's state while the first sync runs. */
export type PageSyncState =
  /** The sync status is still being read (a few ms): show the loading skeletons, claim nothing. */
  | 'checking'
  /** Every entity the page needs is complete: show the data as it is. */
  | 'ready'
  /** The first sync is under way (or will be retried): show skeletons and the progress line. */
  | 'downloading'
  /** Offline with some of those entities not yet downloaded: "connect to finish". */
  | 'incomplete';

export interface PageReadiness {
  state: PageSyncState;
  /** The needed entities not yet complete, in pull order, with rows so far and the total if known. */
  waiting: EntityFirstSync[];
  /**
   * Whether the engine reports progress per entity. When it does not (an engine that only records
   * `lastSyncedAt`), `waiting` lists what the page needs, not what is really missing, and the
   * screens say 'Downloading data…' without naming an entity.
   */
  progressKnown: boolean;
}

/**
 * The whole device has finished its first sync: the engine said so, or — only while no progress
 * was recorded at all (a status row stored before progress existed, read before the engine starts)
 * — a cycle succeeded end to end (`lastSyncedAt`). Once the engine reports progress, that decides:
 * a coach approved after push-only cycles (lastSyncedAt set, nothing pulled yet) is downloading.
 */
export function firstSyncDone(status: { firstSync: readonly unknown[]; firstSyncComplete: boolean; lastSyncedAt: number | null }): boolean {
  return status.firstSyncComplete || (status.firstSync.length === 0 && status.lastSyncedAt != null);
}

/**
 * Entity by entity: complete when the engine says so, or when the whole device finished its first
 * sync (firstSyncDone).
 */
export function pageReadiness(
  status: Pick<SyncStatus, 'loaded' | 'online' | 'firstSync' | 'firstSyncComplete' | 'lastSyncedAt'>,
  needs: readonly EntityName[],
): PageReadiness {
  const progressKnown = status.firstSync.length > 0;
  if (!status.loaded) return { state: 'checking', waiting: [], progressKnown };
  if (firstSyncDone(status)) return { state: 'ready', waiting: [], progressKnown };
  const progress = new Map(status.firstSync.map((e) => [e.entity, e]));
  const order = new Map(status.firstSync.map((e, i) => [e.entity, i]));
  const waiting = needs
    .filter((entity) => !progress.get(entity)?.done)
    .map((entity) => progress.get(entity) ?? { entity, done: false, rows: 0, total: null })
    .sort((a, b) => (order.get(a.entity) ?? order.size) - (order.get(b.entity) ?? order.size));
  if (waiting.length === 0) return { state: 'ready', waiting, progressKnown };
  return { state: status.online ? 'downloading' : 'incomplete', waiting, progressKnown };
}

/** What each page reads, so every screen asks about the same entities (issue #9.5). */
export const PAGE_NEEDS = {
  Dashboard: ['Program', 'Cohort', 'Participant', 'Enrollment'],
  Participants: ['Cohort', 'Participant', 'Enrollment'],
  ParticipantDetail: ['Cohort', 'Participant', 'Enrollment', 'Outcome'],
  Cohorts: ['Program', 'Site', 'Cohort', 'Enrollment'],
  CohortDetail: ['Program', 'Site', 'User', 'Cohort', 'Participant', 'Enrollment', 'Session'],
  ProgramsSites: ['Program', 'Site'],
  ProgramDetail: ['Program', 'Site', 'User', 'Cohort', 'Enrollment'],
  SiteDetail: ['Program', 'Site', 'User', 'Cohort', 'Enrollment'],
  TakeAttendance: ['Cohort', 'Participant', 'Enrollment', 'Session', 'Attendance'],
  SignInSheet: ['Site', 'User', 'Cohort', 'Participant', 'Enrollment', 'Session', 'Attendance'],
  /** The Dashboard's "Sessions this week" panel (issue #23.2), apart from the spec's counts. */
  DashboardSessions: ['Cohort', 'Enrollment', 'Session', 'Attendance'],
  /**
   * The attendance figures of CohortDetail and ParticipantDetail (issue #23.4), apart from the
   * spec's sections: until attendance is in, they say so instead of "No attendance taken yet".
   */
  AttendanceFigures: ['Cohort', 'Enrollment', 'Session', 'Attendance'],
} as const satisfies Record<string, readonly EntityName[]>;

/**
 * What a list page needs before its rows may show (a subset of PAGE_NEEDS): the Participants list
 * is whole once every participant and cohort is here; the cohort codes on its cards fill in while
 * enrollments still download, under the progress line (issue #11.2: usable on a facility link
 * long before the 30,000 enrollments are in).
 */
export const PAGE_CORE = {
  Participants: ['Cohort', 'Participant'],
} as const satisfies Record<string, readonly EntityName[]>;
