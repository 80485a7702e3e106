/**
 * Seeds a fresh PGlite data directory with the demo accounts and the issue #6 data set, straight
 * through the Store in batches of 1,000 (71,250 HTTP creates would take minutes; bulk takes ~30 s).
 * The server is started on the directory afterwards, with DEMO=0 so nothing else is added.
 */
import { createAccount } from '../../../server/auth/accounts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../../server/demo/accounts';
import { createRng } from '../../../server/demo/random';
import { createStore } from '../../../server/store/index';
import type { EntityRecord, Store } from '../../../server/store/types';
import { backdate } from './backdate';
import {
  buildCohorts,
  buildEnrollments,
  buildOutcomes,
  buildParticipants,
  buildPrograms,
  buildRosterCohort,
  buildRosterEnrollments,
  buildRosterSession,
  buildSessions,
  buildSites,
} from './dataset';

const BATCH = 1000;

/**
 * Changes when the data set does (BENCH_SEED_CACHE re-seeds a cache of another version). Issue
 * #22.7: the coach at 3 sites; issue #23: the roster class of 30 (dataset.ts ROSTER_CLASS).
 */
export const DATASET_VERSION = 'coach-at-3-sites+roster-30';

async function inBatches(store: Store, app: string, entity: string, rows: Record<string, unknown>[], meta: { by: string; byId: string }): Promise<EntityRecord[]> {
  const out: EntityRecord[] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(...(await store.createMany(app, entity, rows.slice(i, i + BATCH), meta)));
  return out;
}

export interface SeedResult {
  counts: Record<string, number>;
  /** Ids of a few records the measurements open (a cohort and a participant with enrollments). */
  cohortId: string;
  participantId: string;
  ms: number;
}

async function seedBenchDataDir(dataDir: string, app: string, now = new Date()): Promise<SeedResult> {
  const store = await createStore({ dataDir });
  try {
    const today = now.toISOString().slice(0, 10);
    let adminId = '';
    for (const account of DEMO_ACCOUNTS) {
      const { user } = await createAccount(store, app, {
        email: account.email,
        password: DEMO_PASSWORD,
        full_name: account.full_name,
        role: account.role,
        verified: true,
        fields: account.fields(today, 'admin@example.org'),
      });
      adminId ||= user.id;
    }
    const meta = { by: 'admin@example.org', byId: adminId };
    const rng = createRng(2026);
    const programs = await inBatches(store, app, 'Program', buildPrograms(), meta);
    const sites = await inBatches(store, app, 'Site', buildSites(), meta);
    const cohorts = await inBatches(store, app, 'Cohort', buildCohorts(rng, now, programs, sites), meta);
    const sessions = await inBatches(store, app, 'Session', buildSessions(cohorts), meta);
    const participants = await inBatches(store, app, 'Participant', buildParticipants(rng, now), meta);
    const enrollments = await inBatches(store, app, 'Enrollment', buildEnrollments(rng, participants, cohorts), meta);
    const outcomes = await inBatches(store, app, 'Outcome', buildOutcomes(rng, participants), meta);
    // Issue #23: the coach's class of 30 meeting today (after the rest: the random sequence stays).
    const [roster] = await store.createMany(app, 'Cohort', [buildRosterCohort(now, programs, sites)], meta);
    const rosterSessions = await store.createMany(app, 'Session', [buildRosterSession(roster, now)], meta);
    const rosterEnrollments = await store.createMany(app, 'Enrollment', buildRosterEnrollments(roster, cohorts, enrollments), meta);
    const activeCohort = cohorts.find((c) => c.status === 'active')!;
    return {
      counts: {
        User: DEMO_ACCOUNTS.length,
        Program: programs.length,
        Site: sites.length,
        Cohort: cohorts.length + 1,
        Session: sessions.length + rosterSessions.length,
        Participant: participants.length,
        Enrollment: enrollments.length + rosterEnrollments.length,
        Outcome: outcomes.length,
      },
      cohortId: activeCohort.id,
      participantId: enrollments[0].participant_id as string,
      ms: 0,
    };
  } finally {
    await store.close();
  }
}

/** Seeds, then spreads the timestamps over six months (backdate.ts). */
export async function seedBenchData(dataDir: string, app: string, now = new Date()): Promise<SeedResult> {
  const started = performance.now();
  const seeded = await seedBenchDataDir(dataDir, app, now);
  await backdate(dataDir, app, now.getTime());
  return { ...seeded, ms: performance.now() - started };
}
