/**
 * Issue #23: attendance rules, pure (docs/design.md S16 for how records meet on the server).
 * - Who is on a session's roster: every participant with an active enrollment in the cohort who
 *   had enrolled by the session's day (a late enrollment is not expected at sessions held before
 *   it), plus anyone with a record at that session (a participant who withdrew later keeps their
 *   past attendance).
 * - One record per participant and session; when the tablet briefly holds two (its own tap not yet
 *   sent and another tablet's record pulled), the later tap is the one shown.
 * - Attended means present or late; a session counts as held for a participant once they have a
 *   record there (attendance taken); the rate is attended of held.
 */
import { todayISO } from './format';
import { ATTENDANCE_STATUSES, type Attendance, type AttendanceStatus, type Enrollment, type Session } from '../../shared/entities';

export const ATTENDANCE_LABEL: Record<AttendanceStatus, string> = {
  present: 'Present',
  late: 'Late',
  excused: 'Excused',
  absent: 'Absent',
};

/** Below this rate a participant is listed on CohortDetail as needing a word (funders' usual 70%). */
export const LOW_ATTENDANCE_RATE = 0.7;

/** One tap cycles: unmarked → present → late → excused → absent → present. */
export function nextStatus(current: AttendanceStatus | null | undefined): AttendanceStatus {
  if (!current) return 'present';
  const i = ATTENDANCE_STATUSES.indexOf(current);
  return ATTENDANCE_STATUSES[(i + 1) % ATTENDANCE_STATUSES.length];
}

export const isAttended = (status: AttendanceStatus | null | undefined) => status === 'present' || status === 'late';

const tapOf = (a: Pick<Attendance, 'recorded_at' | 'updated_date'>) => Date.parse(a.recorded_at ?? a.updated_date ?? '') || 0;

/** One record per (session, participant): the later tap when the tablet holds two. */
export function latestPerPair<T extends Pick<Attendance, 'session_id' | 'participant_id' | 'recorded_at' | 'updated_date'>>(records: readonly T[]): T[] {
  const best = new Map<string, T>();
  for (const r of records) {
    const key = `${r.session_id}\u0000${r.participant_id}`;
    const held = best.get(key);
    if (!held || tapOf(r) > tapOf(held)) best.set(key, r);
  }
  return [...best.values()];
}

/** The calendar day (YYYY-MM-DD, local time) of a date or date-time; null without one. */
export function dayOf(value: string | null | undefined): string | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : todayISO(d);
}

export interface RosterLine {
  participantId: string;
  /** The enrollment that puts them on the roster (the active one when there is one). */
  enrollment: Enrollment | null;
  record: Attendance | null;
  /** Withdrawn (or otherwise no longer active) but listed for the record they have here. */
  inactive: boolean;
}

/** Prefer the active enrollment of a participant, else the newest. */
function pickEnrollment(list: Enrollment[]): Enrollment {
  return list.find((e) => e.enrollment_status === 'active') ?? [...list].sort((a, b) => String(b.created_date ?? '').localeCompare(String(a.created_date ?? '')))[0];
}

/** The roster of one session (see the module's rules), in no particular order (the screen sorts by name). */
export function rosterOf(input: { session: Pick<Session, 'id' | 'scheduled_at'>; enrollments: readonly Enrollment[]; attendance: readonly Attendance[] }): RosterLine[] {
  const day = dayOf(input.session.scheduled_at);
  const records = new Map(latestPerPair(input.attendance.filter((a) => a.session_id === input.session.id)).map((a) => [a.participant_id, a]));
  const byParticipant = new Map<string, Enrollment[]>();
  for (const e of input.enrollments) byParticipant.set(e.participant_id, [...(byParticipant.get(e.participant_id) ?? []), e]);
  const lines: RosterLine[] = [];
  for (const [participantId, list] of byParticipant) {
    const enrollment = pickEnrollment(list);
    const record = records.get(participantId) ?? null;
    const active = enrollment.enrollment_status === 'active';
    const enrolledBy = !day || !enrollment.intake_date || enrollment.intake_date <= day;
    if ((active && enrolledBy) || record) lines.push({ participantId, enrollment, record, inactive: !active });
    records.delete(participantId);
  }
  // A record of someone with no enrollment here any more (or not on this tablet): still listed.
  for (const [participantId, record] of records) lines.push({ participantId, enrollment: null, record, inactive: true });
  return lines;
}

export interface Tally {
  marked: number;
  total: number;
  attended: number;
}

export function tally(lines: readonly Pick<RosterLine, 'record'>[]): Tally {
  let marked = 0;
  let attended = 0;
  for (const l of lines) {
    if (!l.record) continue;
    marked++;
    if (isAttended(l.record.status)) attended++;
  }
  return { marked, total: lines.length, attended };
}

/** "18 of 22 marked" */
export const markedPhrase = (t: Pick<Tally, 'marked' | 'total'>) => `${t.marked} of ${t.total} marked`;

export const percent = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 100));

export interface ParticipantAttendance {
  attended: number;
  held: number;
  excused: number;
  /** Attended of held, 0–1; null before any session was taken. */
  rate: number | null;
  /** The most recent absences (absent or excused), newest first. */
  lastAbsences: Array<{ sessionId: string; status: AttendanceStatus; at: string | null; session: Session | null }>;
}

/** A participant's record over every session they were marked at. */
export function participantAttendance(records: readonly Attendance[], sessions: ReadonlyMap<string, Session>, lastN = 3): ParticipantAttendance {
  const mine = latestPerPair(records);
  const attended = mine.filter((r) => isAttended(r.status)).length;
  const excused = mine.filter((r) => r.status === 'excused').length;
  const when = (r: Attendance) => sessions.get(r.session_id)?.scheduled_at ?? r.recorded_at ?? null;
  const lastAbsences = mine
    .filter((r) => !isAttended(r.status))
    .sort((a, b) => String(when(b) ?? '').localeCompare(String(when(a) ?? '')))
    .slice(0, lastN)
    .map((r) => ({ sessionId: r.session_id, status: r.status, at: when(r), session: sessions.get(r.session_id) ?? null }));
  return { attended, held: mine.length, excused, rate: mine.length ? attended / mine.length : null, lastAbsences };
}

/** "9 of 12, 75%" */
export function attendedPhrase(a: Pick<ParticipantAttendance, 'attended' | 'held'>): string {
  const p = percent(a.attended, a.held);
  return p === null ? 'No attendance taken yet' : `${a.attended} of ${a.held}, ${p}%`;
}

export interface SessionRate {
  session: Session;
  marked: number;
  attended: number;
  /** Attended of marked, 0–1; null when attendance was not taken. */
  rate: number | null;
}

export interface CohortAttendance {
  sessions: SessionRate[];
  /** Participants whose rate is under the threshold (active enrollments with a record), lowest first. */
  below: Array<{ participantId: string; attended: number; held: number; rate: number }>;
  /** Attended of marked over the whole cohort; null before any attendance. */
  overall: number | null;
}

export function cohortAttendance(input: {
  sessions: readonly Session[];
  enrollments: readonly Enrollment[];
  attendance: readonly Attendance[];
  threshold?: number;
}): CohortAttendance {
  const threshold = input.threshold ?? LOW_ATTENDANCE_RATE;
  const records = latestPerPair(input.attendance);
  const bySession = new Map<string, Attendance[]>();
  const byParticipant = new Map<string, Attendance[]>();
  for (const r of records) {
    bySession.set(r.session_id, [...(bySession.get(r.session_id) ?? []), r]);
    byParticipant.set(r.participant_id, [...(byParticipant.get(r.participant_id) ?? []), r]);
  }
  const sessions = sortSessions(input.sessions).map((session) => {
    const here = bySession.get(session.id) ?? [];
    const attended = here.filter((r) => isAttended(r.status)).length;
    return { session, marked: here.length, attended, rate: here.length ? attended / here.length : null };
  });
  const active = new Set(input.enrollments.filter((e) => e.enrollment_status === 'active').map((e) => e.participant_id));
  const below = [...byParticipant]
    .filter(([id]) => active.has(id))
    .map(([participantId, list]) => {
      const attended = list.filter((r) => isAttended(r.status)).length;
      return { participantId, attended, held: list.length, rate: attended / list.length };
    })
    .filter((p) => p.rate < threshold)
    .sort((a, b) => a.rate - b.rate || b.held - a.held);
  const marked = records.length;
  const attended = records.filter((r) => isAttended(r.status)).length;
  return { sessions, below, overall: marked ? attended / marked : null };
}

/** Sessions in order: by date and time, then number; undated ones last by number. */
export function sortSessions<T extends Pick<Session, 'scheduled_at' | 'session_number'>>(sessions: readonly T[]): T[] {
  const t = (s: T) => (s.scheduled_at ? Date.parse(s.scheduled_at) : Number.POSITIVE_INFINITY);
  return [...sessions].sort((a, b) => t(a) - t(b) || (a.session_number ?? Number.MAX_SAFE_INTEGER) - (b.session_number ?? Number.MAX_SAFE_INTEGER));
}

/** Sessions from the start of `now`'s day to the end of the day `days` later, soonest first. */
export function sessionsInWindow<T extends Pick<Session, 'scheduled_at' | 'session_number'>>(sessions: readonly T[], now: Date, days: number): T[] {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days + 1).getTime();
  return sortSessions(sessions.filter((s) => {
    const t = s.scheduled_at ? Date.parse(s.scheduled_at) : Number.NaN;
    return t >= from && t < to;
  }));
}
