/**
 * The issue #6 data set as pure builders (no I/O): 50 programs, 200 sites, 1,000 cohorts, 5,000
 * sessions, 10,000 participants, 30,000 enrollments and 20,000 outcomes. The bench's coach leads or
 * supports cohorts at 3 of the 200 sites only (issue #22.7, coachesOf). Deterministic for one seed,
 * so two runs of `npm run bench` measure the same rows. Field shapes follow the demo builders
 * (server/demo/builders.ts) so cards, badges and dates render as they do for real people.
 */
import { UID_FIELD } from '../../../shared/config';
import { cohortCode } from '../../../server/demo/builders';
import { CASE_MANAGERS, FIRST_NAMES, LAST_NAMES, OUTCOME_TYPES, PROGRAMS, SESSION_TOPICS, SITES, STREETS } from '../../../server/demo/catalog';
import { dayOffset, type Rng } from '../../../server/demo/random';

export const SIZES = {
  Program: 50,
  Site: 200,
  Cohort: 1_000,
  Session: 5_000,
  Participant: 10_000,
  Enrollment: 30_000,
  Outcome: 20_000,
} as const;

type Row = Record<string, unknown>;
type WithId = Row & { id: string };

export function buildPrograms(): Row[] {
  return Array.from({ length: SIZES.Program }, (_, i) => {
    const base = PROGRAMS[i % PROGRAMS.length];
    return { program_name: `${base.program_name} ${i + 1}`, description: base.description, active: i % 10 !== 9 };
  });
}

export function buildSites(): Row[] {
  return Array.from({ length: SIZES.Site }, (_, i) => {
    const base = SITES[i % SITES.length];
    return { site_name: `${base.site_name} ${i + 1}`, site_type: base.site_type, city: base.city, county: base.county, region: base.region, active: true };
  });
}

const COHORT_STATUS = ['completed', 'active', 'active', 'planned'] as const;

/** The bench's coach (a demo account): works at exactly COACH_SITES of the sites (issue #22.7). */
export const BENCH_COACH = 'coach@example.org';
export const COACH_SITES = 3;
/**
 * Everyone else who leads or supports a cohort: 40 coaches without accounts (a cohort names its
 * coaches by email; the directory need not know them). None is the bench's coach or an administrator.
 */
export const OTHER_COACHES = Array.from({ length: 40 }, (_, k) => `coach${String(k + 1).padStart(2, '0')}@academy.example.org`);

/** The site of cohort i: the cohorts go round the sites 7 apart, 5 cohorts at each of the 200 sites. */
const siteIndexOf = (i: number, siteCount: number) => (i * 7) % siteCount;

/**
 * Who leads and supports cohort i (issue #22.7). The bench's coach works at the sites of cohorts
 * 0, 1 and 2 and nowhere else: at each of them they lead the first two cohorts, support the third
 * (led by another coach) and have no part in the rest (other coaches' cohorts at the same site,
 * which the coach's tablet holds all the same: it holds sites, not cohorts). Every other cohort is
 * led by one of OTHER_COACHES, a third of them with another as support.
 */
export function coachesOf(i: number, siteCount: number): { lead_coach_email: string; support_coach_emails: string[] } {
  const site = siteIndexOf(i, siteCount);
  const coachSites = Array.from({ length: COACH_SITES }, (_, k) => siteIndexOf(k, siteCount));
  const other = (k: number) => OTHER_COACHES[k % OTHER_COACHES.length];
  if (coachSites.includes(site)) {
    // The how-manieth cohort at this site (cohorts 0..i-1 that share it).
    let nth = 0;
    for (let j = 0; j < i; j++) if (siteIndexOf(j, siteCount) === site) nth++;
    if (nth < 2) return { lead_coach_email: BENCH_COACH, support_coach_emails: [] };
    if (nth === 2) return { lead_coach_email: other(i), support_coach_emails: [BENCH_COACH] };
  }
  return { lead_coach_email: other(i), support_coach_emails: i % 3 === 0 ? [other(i + 7)] : [] };
}

export function buildCohorts(rng: Rng, now: Date, programs: WithId[], sites: WithId[]): Row[] {
  return Array.from({ length: SIZES.Cohort }, (_, i) => {
    const program = programs[i % programs.length];
    const site = sites[siteIndexOf(i, sites.length)];
    const status = COHORT_STATUS[i % COHORT_STATUS.length];
    const startIn = status === 'completed' ? -rng.int(120, 400) : status === 'active' ? -rng.int(5, 60) : rng.int(10, 90);
    const start = dayOffset(now, startIn);
    return {
      program_id: program.id,
      site_id: site.id,
      cohort_code: `${cohortCode(String(program.program_name), String(site.site_name), start)}-${i + 1}`,
      start_date: start,
      end_date: dayOffset(now, startIn + 84),
      schedule_notes: rng.pick(['Mon/Wed 9:00–12:00', 'Tue/Thu 13:00–16:00', 'Weekdays 8:30–11:30']),
      capacity: rng.pick([12, 15, 20, 24, 30]),
      status,
      ...coachesOf(i, sites.length),
    };
  });
}

/** Five sessions per cohort. */
export function buildSessions(cohorts: WithId[]): Row[] {
  const perCohort = SIZES.Session / SIZES.Cohort;
  return cohorts.flatMap((cohort) =>
    Array.from({ length: perCohort }, (_, n) => ({
      cohort_id: cohort.id,
      session_number: n + 1,
      topic: SESSION_TOPICS[n % SESSION_TOPICS.length],
      scheduled_at: new Date(new Date(`${cohort.start_date}T17:00:00.000Z`).getTime() + n * 7 * 86_400_000).toISOString(),
    })),
  );
}

export function buildParticipants(rng: Rng, now: Date): Row[] {
  const year = now.getUTCFullYear();
  return Array.from({ length: SIZES.Participant }, (_, i) => {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const inCustody = i % 5 < 3;
    return {
      [UID_FIELD]: `RA-${year}-${String(i + 1).padStart(5, '0')}`,
      first_name: first,
      last_name: last,
      date_of_birth: dayOffset(now, -rng.int(19 * 365, 55 * 365)),
      gender: i % 3 === 2 ? 'female' : 'male',
      phone: inCustody ? null : `(510) 555-${String(rng.int(0, 9999)).padStart(4, '0')}`,
      email: inCustody ? null : `${first}.${last}${i}@example.net`.toLowerCase(),
      address: inCustody ? null : `${rng.int(100, 9999)} ${rng.pick(STREETS)}, Oakland, CA`,
      custody_status: inCustody ? 'in-custody' : 'released',
      projected_release_date: inCustody ? dayOffset(now, rng.int(3, 900)) : dayOffset(now, -rng.int(30, 400)),
      case_manager: rng.pick(CASE_MANAGERS),
      consent_signed: i % 8 !== 7,
      program_status: rng.pick(['active', 'active', 'active', 'completed', 'on_hold', 'withdrawn']),
      enrollment_date: dayOffset(now, -rng.int(5, 900)),
    };
  });
}

/** Three enrollments per participant, in three different cohorts. */
export function buildEnrollments(rng: Rng, participants: WithId[], cohorts: WithId[]): Row[] {
  const perParticipant = SIZES.Enrollment / SIZES.Participant;
  return participants.flatMap((p, i) =>
    Array.from({ length: perParticipant }, (_, k) => {
      const cohort = cohorts[(i * 3 + k * 331) % cohorts.length];
      const status = cohort.status === 'completed' ? rng.pick(['graduated', 'graduated', 'withdrawn']) : cohort.status === 'planned' ? rng.pick(['active', 'waitlist']) : rng.pick(['active', 'active', 'withdrawn']);
      return { participant_id: p.id, cohort_id: cohort.id, intake_date: String(cohort.start_date), enrollment_status: status };
    }),
  );
}

/** Two outcomes per participant. */
export function buildOutcomes(rng: Rng, participants: WithId[]): Row[] {
  const perParticipant = SIZES.Outcome / SIZES.Participant;
  return participants.flatMap((p) =>
    Array.from({ length: perParticipant }, () => ({ participant_id: p.id, ...rng.pick(OUTCOME_TYPES), outcome_date: String(p.enrollment_date) })),
  );
}

/**
 * Issue #23's bench rows (measure-attendance.ts): one more cohort, led by the bench's coach at
 * their first site, with ROSTER_CLASS.size active enrollments and one session today. Its people
 * are already enrolled at that site, so the coach's tablet holds the same participants as before
 * (the scope rows' 450); it adds 1 cohort, 1 session and 30 enrollments to the data set.
 */
export const ROSTER_CLASS = { cohort_code: 'BENCH-ROSTER-30', size: 30 } as const;

export function buildRosterCohort(now: Date, programs: WithId[], sites: WithId[]): Row {
  const start = dayOffset(now, -28);
  return {
    program_id: programs[0].id,
    site_id: sites[siteIndexOf(0, sites.length)].id,
    cohort_code: ROSTER_CLASS.cohort_code,
    start_date: start,
    end_date: dayOffset(now, 56),
    schedule_notes: 'Weekdays 8:30–11:30',
    capacity: ROSTER_CLASS.size,
    status: 'active',
    lead_coach_email: BENCH_COACH,
    support_coach_emails: [],
  };
}

/** Today's meeting (17:00 UTC, as the demo's: 9:00 or 10:00 Pacific). */
export function buildRosterSession(cohort: WithId, now: Date): Row {
  return { cohort_id: cohort.id, session_number: 1, topic: SESSION_TOPICS[0], scheduled_at: `${now.toISOString().slice(0, 10)}T17:00:00.000Z` };
}

/** The first ROSTER_CLASS.size participants enrolled at the cohort's site, each actively enrolled since its start. */
export function buildRosterEnrollments(cohort: WithId, cohorts: WithId[], enrollments: Row[]): Row[] {
  const here = new Set(cohorts.filter((c) => c.site_id === cohort.site_id && c.id !== cohort.id).map((c) => c.id));
  const people = [...new Set(enrollments.filter((e) => here.has(String(e.cohort_id))).map((e) => String(e.participant_id)))].slice(0, ROSTER_CLASS.size);
  if (people.length < ROSTER_CLASS.size) throw new Error(`roster class: only ${people.length} participants at its site`);
  return people.map((participant_id) => ({ participant_id, cohort_id: cohort.id, intake_date: String(cohort.start_date), enrollment_status: 'active' }));
}
