import type { EntityName } from '../../../shared/entities';
import type { EngineTuning } from './types';

/** The engine's settings (tests and the bench override them through `tuning`). */
export const DEFAULT_TUNING: EngineTuning = {
  pageSize: 5000, // the platform's maximum page (platform-contract 7)
  overlapMs: 2_000, // re-read the last 2 s of each entity: late commits with earlier timestamps
  debounceMs: 1_000, // sync about 1 s after the last local write (S9)
  periodicMs: 60_000, // every 60 s while visible (S9)
  probeMs: 1_000, // server unreachable, browser not offline: one small request a second (S9)
  reconcileMs: 10 * 60_000, // id listings are cheap but not free: every 10 minutes (S6)
  maxBulk: 100,
  concurrency: 4, // a few requests at once; facility networks do not like dozens
  safetyNetMs: 10 * 60_000, // S18: with the change stream healthy, a pull every 10 minutes in case a notice was lost
  staleMs: 60_000, // S18: the server comments every 25 s; two missed in a row and a margin: dead or buffered
  noticeDelayMs: 250, // S18: the server coalesces at 250 ms; a burst's notices become one pull
  openWaitMs: 3_000, // S18: a returning tab pulls when its stream opens, or after 3 s without it
};

/**
 * What the first screens need first (issue #11.3): participants and cohorts, the small tables that
 * name things on them, then the big ones. Pulls run `concurrency` at a time (pull-runner.ts).
 */
export const PULL_ORDER: EntityName[] = ['Participant', 'Cohort', 'Program', 'Site', 'User', 'Enrollment', 'Session', 'Outcome', 'Attendance'];

export const LOCK_NAME = 'passage-sync';
