import { describe, expect, it } from 'vitest';
import type { Attendance, Enrollment, Session } from '../../../shared/entities';
import {
  attendedPhrase,
  cohortAttendance,
  latestPerPair,
  markedPhrase,
  nextStatus,
  participantAttendance,
  rosterOf,
  sessionsInWindow,
  sortSessions,
  tally,
} from '../../../src/domain/attendance';
import { cohortRole, canManageSessions, canTakeAttendance, canExportAttendance } from '../../../src/domain/cohort-role';
import { nextSessionNumber, planWeeklySessions } from '../../../src/domain/session-plan';

const enrol = (participant_id: string, enrollment_status: Enrollment['enrollment_status'], intake_date = '2026-01-05', created_date = '2026-01-05'): Enrollment => ({
  id: `e-${participant_id}-${enrollment_status}`,
  participant_id,
  cohort_id: 'c1',
  enrollment_status,
  intake_date,
  created_date,
});
const rec = (participant_id: string, status: Attendance['status'], session_id = 's1', recorded_at = '2026-01-15T17:05:00.000Z'): Attendance => ({
  id: `a-${session_id}-${participant_id}-${recorded_at}`,
  session_id,
  cohort_id: 'c1',
  participant_id,
  status,
  recorded_at,
});
const session = (id: string, scheduled_at: string | null, session_number: number): Session => ({ id, cohort_id: 'c1', scheduled_at, session_number });

describe('taps', () => {
  it('one tap cycles unmarked → present → late → excused → absent → present', () => {
    const seen = [nextStatus(null)];
    for (let i = 0; i < 4; i++) seen.push(nextStatus(seen[seen.length - 1]));
    expect(seen).toEqual(['present', 'late', 'excused', 'absent', 'present']);
  });

  it('S16: of two records of one pair on the tablet, the later tap is the one shown', () => {
    const kept = latestPerPair([rec('p1', 'present', 's1', '2026-01-15T17:05:00Z'), rec('p1', 'absent', 's1', '2026-01-15T17:06:00Z'), rec('p2', 'late')]);
    expect(kept.map((r) => [r.participant_id, r.status]).sort()).toEqual([
      ['p1', 'absent'],
      ['p2', 'late'],
    ]);
  });
});

describe('the roster of a session', () => {
  const s1 = session('s1', '2026-01-15T17:00:00.000Z', 3);

  it('lists active enrollments enrolled by the session day; a late enrollee is not expected at an earlier session', () => {
    const lines = rosterOf({ session: s1, enrollments: [enrol('p1', 'active'), enrol('p2', 'active', '2026-01-20'), enrol('p3', 'waitlist')], attendance: [] });
    expect(lines.map((l) => l.participantId)).toEqual(['p1']);
  });

  it('a withdrawn participant keeps the record they have here, marked inactive; without one they are not listed', () => {
    const lines = rosterOf({ session: s1, enrollments: [enrol('p1', 'withdrawn'), enrol('p2', 'withdrawn')], attendance: [rec('p1', 'present')] });
    expect(lines).toEqual([expect.objectContaining({ participantId: 'p1', inactive: true, record: expect.objectContaining({ status: 'present' }) })]);
  });

  it('a re-enrolled participant is listed once, by the active enrollment', () => {
    const lines = rosterOf({ session: s1, enrollments: [enrol('p1', 'withdrawn', '2026-01-01', '2026-01-01'), enrol('p1', 'active', '2026-01-10', '2026-01-10')], attendance: [] });
    expect(lines).toHaveLength(1);
    expect(lines[0].enrollment?.enrollment_status).toBe('active');
  });

  it('counts "N of M marked" and who attended (present or late)', () => {
    const lines = rosterOf({
      session: s1,
      enrollments: ['p1', 'p2', 'p3', 'p4'].map((p) => enrol(p, 'active')),
      attendance: [rec('p1', 'present'), rec('p2', 'late'), rec('p3', 'absent')],
    });
    const t = tally(lines);
    expect(t).toEqual({ marked: 3, total: 4, attended: 2 });
    expect(markedPhrase(t)).toBe('3 of 4 marked');
  });
});

describe('what attendance shows', () => {
  const sessions = [session('s1', '2026-01-05T17:00:00Z', 1), session('s2', '2026-01-08T17:00:00Z', 2), session('s3', '2026-01-12T17:00:00Z', 3), session('s4', '2026-01-15T17:00:00Z', 4)];

  it('a participant: attended of held, the rate, and the last absences newest first', () => {
    const records = [rec('p1', 'present', 's1'), rec('p1', 'absent', 's2'), rec('p1', 'late', 's3'), rec('p1', 'excused', 's4')];
    const a = participantAttendance(records, new Map(sessions.map((s) => [s.id, s])));
    expect(a).toMatchObject({ attended: 2, held: 4, excused: 1, rate: 0.5 });
    expect(a.lastAbsences.map((x) => [x.sessionId, x.status])).toEqual([
      ['s4', 'excused'],
      ['s2', 'absent'],
    ]);
    expect(attendedPhrase(a)).toBe('2 of 4, 50%');
    expect(attendedPhrase({ attended: 9, held: 12 })).toBe('9 of 12, 75%');
    expect(attendedPhrase({ attended: 0, held: 0 })).toBe('No attendance taken yet');
  });

  it('a cohort: the rate per session in order, and active participants under 70% lowest first', () => {
    const records = [
      ...['s1', 's2', 's3'].map((s) => rec('p1', 'present', s)),
      rec('p2', 'present', 's1'),
      rec('p2', 'absent', 's2'),
      rec('p2', 'absent', 's3'),
      rec('p3', 'absent', 's1'), // withdrew: not listed
    ];
    const c = cohortAttendance({ sessions: [...sessions].reverse(), enrollments: [enrol('p1', 'active'), enrol('p2', 'active'), enrol('p3', 'withdrawn')], attendance: records });
    expect(c.sessions.map((s) => [s.session.id, s.marked, s.attended])).toEqual([
      ['s1', 3, 2],
      ['s2', 2, 1],
      ['s3', 2, 1],
      ['s4', 0, 0],
    ]);
    expect(c.sessions[3].rate).toBeNull();
    expect(c.below).toEqual([{ participantId: 'p2', attended: 1, held: 3, rate: 1 / 3 }]);
    expect(c.overall).toBeCloseTo(4 / 7);
  });
});

describe('sessions in time', () => {
  it('sorts by date and time, then number; undated last', () => {
    const sorted = sortSessions([session('b', null, 2), session('c', '2026-01-08T17:00:00Z', 5), session('a', '2026-01-05T17:00:00Z', 9)]);
    expect(sorted.map((s) => s.id)).toEqual(['a', 'c', 'b']);
  });

  it('the Dashboard window: from the start of today to the end of the 7th day after', () => {
    const now = new Date(2026, 0, 15, 20, 0); // local time, late in the day
    const at = (d: number, h: number) => new Date(2026, 0, d, h).toISOString();
    const sessions = [session('past', at(14, 17), 1), session('today-morning', at(15, 9), 2), session('day7', at(22, 23), 3), session('day8', at(23, 0), 4)];
    expect(sessionsInWindow(sessions, now, 7).map((s) => s.id)).toEqual(['today-morning', 'day7']);
  });

  it('"Generate weekly sessions": the first weekday on or after the start, numbered on, stopping at the end date', () => {
    const plan = planWeeklySessions({ startDate: '2026-01-07', endDate: '2026-01-28', weekday: 1, time: '09:30', count: 10, firstNumber: 4, topic: ' Budgets ' });
    expect(plan.map((p) => [p.session_number, new Date(p.scheduled_at).getDay(), new Date(p.scheduled_at).getHours(), new Date(p.scheduled_at).getDate()])).toEqual([
      [4, 1, 9, 12],
      [5, 1, 9, 19],
      [6, 1, 9, 26],
    ]);
    expect(plan[0].topic).toBe('Budgets');
    expect(planWeeklySessions({ startDate: '2026-01-07', weekday: 3, time: '09:00', count: 2, firstNumber: 1 }).map((p) => new Date(p.scheduled_at).getDate())).toEqual([7, 14]);
    expect(planWeeklySessions({ startDate: 'bad', weekday: 3, time: '09:00', count: 2, firstNumber: 1 })).toEqual([]);
    expect(nextSessionNumber([{ session_number: 3 }, { session_number: null }, { session_number: 7 }])).toBe(8);
    expect(nextSessionNumber([])).toBe(1);
  });
});

describe("a person's place in a cohort", () => {
  const cohort = { lead_coach_email: 'Lead@Example.org', support_coach_emails: ['help@example.org'] };
  it('admin, lead, support or none, e-mails compared without case', () => {
    expect(cohortRole({ role: 'admin', email: 'x@example.org' }, cohort)).toBe('admin');
    expect(cohortRole({ role: 'user', email: 'lead@example.org' }, cohort)).toBe('lead');
    expect(cohortRole({ role: 'user', email: 'HELP@example.org' }, cohort)).toBe('support');
    expect(cohortRole({ role: 'user', email: 'other@example.org' }, cohort)).toBe('none');
    expect(cohortRole(null, cohort)).toBe('none');
  });
  it('the lead schedules, lead and support take attendance, admins export', () => {
    expect((['admin', 'lead', 'support', 'none'] as const).map((r) => [canManageSessions(r), canTakeAttendance(r), canExportAttendance(r)])).toEqual([
      [true, true, true],
      [true, true, false],
      [false, true, false],
      [false, false, false],
    ]);
  });
});
