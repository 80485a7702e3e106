import type { EntityName } from '../../shared/entities';

/**
 * The words of the first-sync states (issue #9.5), pure so they are tested without a screen:
 * "Downloading participants… 4,000 of 10,000" while the first pull runs, and offline
 * "Not all data is on this tablet yet: connect to finish".
 */

export const INCOMPLETE_OFFLINE = 'Not all data is on this tablet yet: connect to finish';

const PLURAL: Record<EntityName, string> = {
  Program: 'programs',
  Site: 'sites',
  User: 'coaches',
  Cohort: 'cohorts',
  Participant: 'participants',
  Enrollment: 'enrollments',
  Session: 'sessions',
  Outcome: 'outcomes',
  Attendance: 'attendance records',
};

export function entityPlural(entity: EntityName): string {
  return PLURAL[entity];
}

const count = (n: number) => n.toLocaleString('en-US');

/** 'Downloading participants… 4,000 of 10,000'; without a known total '… 4,000 so far'. */
export function downloadingLine(p: { entity: EntityName; rows: number; total: number | null }): string {
  const head = `Downloading ${PLURAL[p.entity]}…`;
  if (p.total != null) return `${head} ${count(Math.min(p.rows, p.total))} of ${count(p.total)}`;
  return p.rows > 0 ? `${head} ${count(p.rows)} so far` : head;
}

/** 'Still to download: enrollments and sessions.' */
export function stillToDownload(entities: EntityName[]): string {
  const names = entities.map((e) => PLURAL[e]);
  const list = names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Still to download: ${list}.`;
}
