/** Pure builders of the demo records (no I/O): given the RNG and the records they refer to. */
import { UID_FIELD } from '../../shared/config';
import type { EntityRecord } from '../store/types';
import { CASE_MANAGERS, FIRST_NAMES, LAST_NAMES, MIDDLE_INITIALS, OUTCOME_TYPES, RELATIONSHIPS, SESSION_TOPICS, STREETS } from './catalog';
import { dayOffset, type Rng } from './random';

export const PARTICIPANT_COUNT = 40;

/** spec.md 5: initials of up to 3 words of program and site, then year and quarter. */
export function cohortCode(programName: string, siteName: string, startDate: string): string {
  const initials = (name: string) => name.split(/\s+/).filter(Boolean).slice(0, 3).map((w) => w[0].toUpperCase()).join('');
  const month = Number(startDate.slice(5, 7));
  return `${initials(programName)}-${initials(siteName)}-${startDate.slice(0, 4)}Q${Math.ceil(month / 3)}`;
}

// Six cohorts: two finished, two running, two starting soon (days relative to today).
const COHORT_PLAN = [
  { startIn: -200, weeks: 12, status: 'completed' },
  { startIn: -120, weeks: 10, status: 'completed' },
  { startIn: -30, weeks: 12, status: 'active' },
  { startIn: -10, weeks: 8, status: 'active' },
  { startIn: 20, weeks: 12, status: 'planned' },
  { startIn: 45, weeks: 10, status: 'planned' },
] as const;

export function buildCohorts(rng: Rng, now: Date, programs: EntityRecord[], sites: EntityRecord[]) {
  return COHORT_PLAN.map((plan, i) => {
    const program = programs[i % programs.length];
    const site = sites[i % sites.length];
    const start = dayOffset(now, plan.startIn);
    return {
      program_id: program.id,
      site_id: site.id,
      cohort_code: cohortCode(String(program.program_name), String(site.site_name), start),
      start_date: start,
      end_date: dayOffset(now, plan.startIn + plan.weeks * 7),
      schedule_notes: rng.pick(['Mon/Wed 9:00–12:00', 'Tue/Thu 13:00–16:00', 'Weekdays 8:30–11:30']),
      capacity: i === 5 ? null : rng.pick([12, 15, 20, 24]),
      status: plan.status,
      lead_coach_email: i % 2 === 0 ? 'coach@example.org' : 'admin@example.org',
      support_coach_emails: i % 3 === 0 ? ['pending@example.org'] : [],
    };
  });
}

const DAY = 86_400_000;

/**
 * Issue #23.2: a running cohort meets twice a week on days fixed so that one meeting is today (the
 * demo coach's) or the day after tomorrow (the others'), from its start to its end: a coach who
 * opens the demo has a class to take attendance for, and a week of sessions on the Dashboard.
 */
function runningSessions(cohort: EntityRecord, now: Date, anchorDay: number) {
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T17:00:00.000Z`); // 9:00 or 10:00 Pacific
  const first = Date.parse(`${cohort.start_date}T00:00:00.000Z`);
  const last = Date.parse(`${cohort.end_date}T23:59:59.000Z`);
  const days: number[] = [];
  for (let d = Math.floor((first - today) / DAY) - 1; d * DAY + today <= last; d++) {
    const offset = (((d - anchorDay) % 7) + 7) % 7;
    if ((offset === 0 || offset === 3) && today + d * DAY >= first) days.push(d);
  }
  return days.map((d, n) => ({
    cohort_id: cohort.id,
    session_number: n + 1,
    topic: SESSION_TOPICS[n % SESSION_TOPICS.length],
    scheduled_at: new Date(today + d * DAY).toISOString(),
  }));
}

export function buildSessions(rng: Rng, cohorts: EntityRecord[], now: Date) {
  return cohorts.flatMap((cohort) => {
    const count = rng.int(6, 9); // drawn for every cohort, so the random sequence stays as it was
    if (cohort.status === 'active') return runningSessions(cohort, now, cohort.lead_coach_email === 'coach@example.org' ? 0 : 2);
    const start = new Date(`${cohort.start_date}T17:00:00.000Z`); // 9:00 or 10:00 Pacific
    return Array.from({ length: count }, (_, n) => ({
      cohort_id: cohort.id,
      session_number: n + 1,
      topic: SESSION_TOPICS[n % SESSION_TOPICS.length],
      scheduled_at: new Date(start.getTime() + n * 7 * 86_400_000).toISOString(),
    }));
  });
}

function ageOn(dob: string, now: Date): number {
  const [y, m, d] = dob.split('-').map(Number);
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age -= 1;
  return age;
}

export function buildParticipants(rng: Rng, now: Date) {
  const year = now.getUTCFullYear();
  return Array.from({ length: PARTICIPANT_COUNT }, (_, i) => {
    const first = FIRST_NAMES[(i * 7 + rng.int(0, 2)) % FIRST_NAMES.length];
    const last = LAST_NAMES[(i * 11 + rng.int(0, 3)) % LAST_NAMES.length];
    const dob = dayOffset(now, -rng.int(19 * 365, 55 * 365));
    const inCustody = i % 5 < 3; // 60 % in custody, 40 % released
    // Every fourth person in custody goes home within the next 60 days (the Dashboard's list).
    const releaseIn = i % 4 === 0 ? rng.int(3, 58) : rng.int(90, 900);
    const status = i % 10 === 9 ? 'withdrawn' : i % 7 === 6 ? 'completed' : i % 11 === 10 ? 'on_hold' : 'active';
    return {
      [UID_FIELD]: `RA-${year}-${String(i + 1).padStart(4, '0')}`,
      first_name: first,
      middle_name: rng.pick(MIDDLE_INITIALS),
      last_name: last,
      date_of_birth: dob,
      age: ageOn(dob, now),
      gender: i % 3 === 2 ? 'female' : rng.chance(0.05) ? 'prefer not to say' : 'male',
      phone: inCustody ? null : `(510) 555-${String(1000 + rng.int(0, 8999)).slice(0, 4)}`,
      email: inCustody ? null : `${first}.${last}${i}@example.net`.toLowerCase(),
      address: inCustody ? null : `${rng.int(100, 9999)} ${rng.pick(STREETS)}, Oakland, CA`,
      cdcr_number: `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + ((i * 3) % 26))}${String(10000 + rng.int(0, 89999))}`,
      custody_status: inCustody ? 'in-custody' : 'released',
      projected_release_date: inCustody ? dayOffset(now, releaseIn) : dayOffset(now, -rng.int(30, 400)),
      actual_release_date: inCustody ? null : dayOffset(now, -rng.int(10, 300)),
      case_manager: rng.pick(CASE_MANAGERS),
      address_on_release: inCustody ? `${rng.int(100, 9999)} ${rng.pick(STREETS)}, Oakland, CA` : null,
      emergency_contact_name: `${rng.pick(FIRST_NAMES)} ${last}`,
      emergency_contact_phone: `(415) 555-${String(1000 + rng.int(0, 8999)).slice(0, 4)}`,
      emergency_contact_relationship: rng.pick(RELATIONSHIPS),
      consent_signed: i % 8 !== 7,
      consent_date: i % 8 !== 7 ? dayOffset(now, -rng.int(20, 250)) : null,
      program_status: status,
      enrollment_date: dayOffset(now, -rng.int(5, 260)),
    };
  });
}

export function buildEnrollments(rng: Rng, participants: EntityRecord[], cohorts: EntityRecord[]) {
  return participants.flatMap((p, i) => {
    const cohort = cohorts[i % cohorts.length];
    const status =
      cohort.status === 'completed'
        ? (i % 4 === 0 ? 'withdrawn' : 'graduated')
        : cohort.status === 'planned'
          ? (i % 4 === 1 ? 'waitlist' : 'active')
          : (i % 9 === 0 ? 'withdrawn' : 'active');
    const rows = [{ participant_id: p.id, cohort_id: cohort.id, intake_date: String(cohort.start_date), enrollment_status: status }];
    // Some graduates move on to a second, running cohort.
    if (status === 'graduated' && rng.chance(0.5)) {
      const next = cohorts.find((c) => c.status === 'active')!;
      rows.push({ participant_id: p.id, cohort_id: next.id, intake_date: String(next.start_date), enrollment_status: 'active' });
    }
    return rows;
  });
}

export function buildOutcomes(rng: Rng, participants: EntityRecord[], enrollments: EntityRecord[]) {
  const graduates = new Set(enrollments.filter((e) => e.enrollment_status === 'graduated').map((e) => e.participant_id));
  return participants
    .filter((p) => graduates.has(p.id) || rng.chance(0.15))
    .flatMap((p) =>
      Array.from({ length: rng.int(1, 2) }, () => ({
        participant_id: p.id,
        ...rng.pick(OUTCOME_TYPES),
        outcome_date: String(p.enrollment_date),
      })),
    );
}

/**
 * Issue #23: attendance at the running cohorts' past sessions (none yet for today's, which the
 * coach takes): every participant enrolled by the session's day, mostly present, some late,
 * excused or absent, and a few who miss often (the CohortDetail list under 70%). A participant who
 * withdrew keeps the attendance of the sessions before they left. Its own random sequence.
 */
export function buildAttendance(rng: Rng, now: Date, sessions: EntityRecord[], enrollments: EntityRecord[], cohorts: EntityRecord[]) {
  const startOfToday = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  const cohortOf = new Map(cohorts.map((c) => [c.id, c]));
  const rows: Record<string, unknown>[] = [];
  for (const session of sessions) {
    const cohort = cohortOf.get(String(session.cohort_id));
    const at = Date.parse(String(session.scheduled_at));
    if (!cohort || cohort.status !== 'active' || !(at < startOfToday)) continue;
    const day = String(session.scheduled_at).slice(0, 10);
    const enrolled = enrollments.filter(
      (e) => e.cohort_id === cohort.id && String(e.intake_date) <= day && (e.enrollment_status === 'active' || e.enrollment_status === 'withdrawn'),
    );
    for (const [i, e] of enrolled.entries()) {
      // A withdrawn participant came to the first weeks only.
      if (e.enrollment_status === 'withdrawn' && at > Date.parse(String(cohort.start_date)) + 14 * DAY) continue;
      const oftenAway = i % 5 === 3; // about one in five misses often
      const roll = rng.int(0, 99);
      const status = oftenAway
        ? (roll < 45 ? 'present' : roll < 55 ? 'excused' : 'absent')
        : roll < 82 ? 'present' : roll < 90 ? 'late' : roll < 95 ? 'excused' : 'absent';
      rows.push({
        session_id: session.id,
        cohort_id: cohort.id,
        participant_id: e.participant_id,
        status,
        note: status === 'excused' ? rng.pick(['Medical appointment', 'Court date', 'Work assignment']) : null,
        recorded_by: cohort.lead_coach_email,
        recorded_at: new Date(at + 5 * 60_000).toISOString(),
      });
    }
  }
  return rows;
}
