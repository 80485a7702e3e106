/**
 * Demo data for a first start: accounts, programs, sites, cohorts with sessions, participants,
 * enrollments in every status, outcomes and attendance at the running cohorts' past sessions. Everything goes through the Store (so ids and
 * updated_date follow its rules); content is fixed by the seed and dated relative to `now`.
 */
import { createAccount } from '../auth/accounts';
import type { EntityRecord, Store } from '../store/types';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './accounts';
import { buildAttendance, buildCohorts, buildEnrollments, buildOutcomes, buildParticipants, buildSessions } from './builders';
import { PROGRAMS, SITES } from './catalog';
import { createRng } from './random';

export interface SeedOptions {
  now: Date;
  seed?: number;
}

export interface SeedSummary {
  seeded: boolean;
  counts: Record<string, number>;
}

/**
 * Seeds only an empty app (no users and no participants); returns what it created. Under a lock
 * shared by every instance on the database (issue #25.2), and the emptiness is checked under it:
 * two instances starting together on an empty database seed once, the second finds it done.
 */
export function seedDemo(store: Store, app: string, opts: SeedOptions): Promise<SeedSummary> {
  return store.underLock(`demo-seed:${app}`, () => seedEmpty(store, app, opts));
}

async function seedEmpty(store: Store, app: string, opts: SeedOptions): Promise<SeedSummary> {
  if ((await store.count(app, 'User')) > 0 || (await store.count(app, 'Participant')) > 0) return { seeded: false, counts: {} };
  const rng = createRng(opts.seed ?? 2026);
  const today = opts.now.toISOString().slice(0, 10);

  let admin: EntityRecord | null = null;
  for (const account of DEMO_ACCOUNTS) {
    const { user } = await createAccount(store, app, {
      email: account.email,
      password: DEMO_PASSWORD,
      full_name: account.full_name,
      role: account.role,
      verified: true,
      fields: account.fields(today, 'admin@example.org'),
    });
    admin ??= user;
  }
  const meta = { by: 'admin@example.org', byId: admin!.id };
  const create = (entity: string, rows: Record<string, unknown>[]) => store.createMany(app, entity, rows, meta);

  const programs = await create('Program', PROGRAMS.map((p) => ({ ...p, active: true })));
  const sites = await create('Site', SITES.map((s) => ({ ...s, active: true })));
  const cohorts = await create('Cohort', buildCohorts(rng, opts.now, programs, sites));
  const sessions = await create('Session', buildSessions(rng, cohorts, opts.now));
  const participants = await create('Participant', buildParticipants(rng, opts.now));
  const enrollments = await create('Enrollment', buildEnrollments(rng, participants, cohorts));
  const outcomes = await create('Outcome', buildOutcomes(rng, participants, enrollments));
  const attendance = await create('Attendance', buildAttendance(createRng((opts.seed ?? 2026) + 1), opts.now, sessions, enrollments, cohorts));

  return {
    seeded: true,
    counts: {
      User: DEMO_ACCOUNTS.length,
      Program: programs.length,
      Site: sites.length,
      Cohort: cohorts.length,
      Session: sessions.length,
      Participant: participants.length,
      Enrollment: enrollments.length,
      Outcome: outcomes.length,
      Attendance: attendance.length,
    },
  };
}
