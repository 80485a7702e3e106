/**
 * Issue #23: attendance reads. Each list is joined in memory from a few indexed reads (by session,
 * cohort or participant), never one query per row; the rules are the pure ones of
 * domain/attendance.ts.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import { getByIdOrAlias, resolvedId } from './by-id';
import type { Attendance, Cohort, Participant, Session } from '../../../shared/entities';
import {
  cohortAttendance,
  latestPerPair,
  participantAttendance,
  rosterOf,
  sessionsInWindow,
  sortSessions,
  tally,
  type CohortAttendance,
  type ParticipantAttendance,
  type RosterLine,
} from '../../domain/attendance';
import { personName } from '../../domain/record-title';
import { placeInCohort } from '../../../shared/cohort-place';

export interface RosterEntry extends RosterLine {
  /** Null when the participant is not on this tablet (a record of someone beyond its scope). */
  participant: Participant | null;
}

export interface SessionRoster {
  session: Session;
  cohort: Cohort | null;
  /** Sorted by last name, then first name. */
  entries: RosterEntry[];
}

/** Last name, first name, then UID and id: two people of one name keep their places between taps. */
const byName = (a: RosterEntry, b: RosterEntry) =>
  (a.participant?.last_name ?? '\uffff').localeCompare(b.participant?.last_name ?? '\uffff') ||
  (a.participant?.first_name ?? '').localeCompare(b.participant?.first_name ?? '') ||
  (a.participant?.academy_uid ?? '').localeCompare(b.participant?.academy_uid ?? '') ||
  a.participantId.localeCompare(b.participantId);

/** The roster of one session (domain/attendance.ts `rosterOf`); null when the session is not on this tablet. */
export function useSessionRoster(sessionId: string): SessionRoster | null | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => {
    const session = await getByIdOrAlias(ctx, ctx.db.sessions, sessionId);
    if (!session) return null;
    const [cohort, enrollments, attendance] = await Promise.all([
      ctx.db.cohorts.get(session.cohort_id),
      ctx.db.enrollments.where('cohort_id').equals(session.cohort_id).toArray(),
      ctx.db.attendance.where('session_id').equals(session.id).toArray(),
    ]);
    const lines = rosterOf({ session, enrollments, attendance });
    const participants = await ctx.db.participants.bulkGet(lines.map((l) => l.participantId));
    const entries = lines.map((line, i) => ({ ...line, participant: participants[i] ?? null })).sort(byName);
    return { session, cohort: cohort ?? null, entries };
  }, [ctx, sessionId]);
}

export interface SessionWithTally {
  session: Session;
  /** Records taken at this session (one per participant). */
  marked: number;
  attended: number;
  /** Who is on the session's roster (domain `rosterOf`): "18 of 22 marked". */
  expected: number;
}

/** A cohort's sessions, enrollments and attendance: three indexed reads. */
async function cohortRecords(ctx: ReturnType<typeof useDataContext>, cohortId: string) {
  const id = await resolvedId(ctx, cohortId);
  const [sessions, enrollments, attendance] = await Promise.all([
    ctx.db.sessions.where('cohort_id').equals(id).toArray(),
    ctx.db.enrollments.where('cohort_id').equals(id).toArray(),
    ctx.db.attendance.where('cohort_id').equals(id).toArray(),
  ]);
  return { sessions, enrollments, attendance };
}

/** Every session of a cohort in order (date, then number), with how much attendance was taken. */
export function useSessionsWithAttendance(cohortId: string): SessionWithTally[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => {
    const { sessions, enrollments, attendance } = await cohortRecords(ctx, cohortId);
    const records = latestPerPair(attendance);
    return sortSessions(sessions).map((session) => {
      const here = records.filter((r) => r.session_id === session.id);
      const expected = rosterOf({ session, enrollments, attendance: here }).length;
      return { session, marked: here.length, attended: here.filter((r) => r.status === 'present' || r.status === 'late').length, expected };
    });
  }, [ctx, cohortId]);
}

/** CohortDetail: the rate per session and who is under the threshold (domain `cohortAttendance`). */
export function useCohortAttendance(cohortId: string): CohortAttendance | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => cohortAttendance(await cohortRecords(ctx, cohortId)), [ctx, cohortId]);
}

/** ParticipantDetail: sessions attended of held, and the last absences. */
export function useParticipantAttendance(participantId: string): ParticipantAttendance | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => {
    const id = await resolvedId(ctx, participantId);
    const records = await ctx.db.attendance.where('participant_id').equals(id).toArray();
    const sessions = await ctx.db.sessions.bulkGet([...new Set(records.map((r) => r.session_id))]);
    return participantAttendance(records, new Map(sessions.filter((s): s is Session => !!s).map((s) => [s.id, s])));
  }, [ctx, participantId]);
}

export interface UpcomingSession {
  session: Session;
  cohort: Cohort;
  /** Records taken at this session so far (of the roster, domain `tally`). */
  marked: number;
  /** Everyone on the session's roster (domain `rosterOf`): "12 of 20 marked". */
  total: number;
}

/**
 * Dashboard "Today": the sessions of today and the next `days` days of the cohorts this person
 * leads or supports (an administrator who coaches none sees every cohort on the tablet), soonest
 * first, with how much attendance each has.
 */
export function useMyUpcomingSessions(email: string | null | undefined, isAdmin: boolean, days = 7): UpcomingSession[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => {
    const cohorts = await ctx.db.cohorts.toArray();
    const mine = cohorts.filter((c) => placeInCohort(email, c) !== 'none');
    const shown = mine.length === 0 && isAdmin ? cohorts : mine;
    if (shown.length === 0) return [];
    const cohortOf = new Map(shown.map((c) => [c.id, c]));
    const sessions = await ctx.db.sessions.where('cohort_id').anyOf([...cohortOf.keys()]).toArray();
    const upcoming = sessionsInWindow(sessions, new Date(ctx.now()), days);
    if (upcoming.length === 0) return [];
    const [enrollments, attendance] = await Promise.all([
      ctx.db.enrollments.where('cohort_id').anyOf([...new Set(upcoming.map((s) => s.cohort_id))]).toArray(),
      ctx.db.attendance.where('session_id').anyOf(upcoming.map((s) => s.id)).toArray(),
    ]);
    return upcoming.map((session) => {
      const t = tally(rosterOf({ session, enrollments: enrollments.filter((e) => e.cohort_id === session.cohort_id), attendance }));
      return { session, cohort: cohortOf.get(session.cohort_id)!, marked: t.marked, total: t.total };
    });
  }, [ctx, email, isAdmin, days]);
}

export interface AttendanceExportRow {
  record: Attendance;
  session: Session | null;
  participantName: string;
  uid: string | null;
}

/** Every attendance record of a cohort with its session and participant, for the CSV export. */
export async function attendanceForExport(ctx: ReturnType<typeof useDataContext>, cohortId: string): Promise<AttendanceExportRow[]> {
  const id = await resolvedId(ctx, cohortId);
  const records = latestPerPair(await ctx.db.attendance.where('cohort_id').equals(id).toArray());
  const [sessions, participants] = await Promise.all([
    ctx.db.sessions.bulkGet([...new Set(records.map((r) => r.session_id))]),
    ctx.db.participants.bulkGet([...new Set(records.map((r) => r.participant_id))]),
  ]);
  const sessionOf = new Map(sessions.filter((s): s is Session => !!s).map((s) => [s.id, s]));
  const participantOf = new Map(participants.filter((p): p is Participant => !!p).map((p) => [p.id, p]));
  return records.map((record) => {
    const p = participantOf.get(record.participant_id);
    return { record, session: sessionOf.get(record.session_id) ?? null, participantName: personName(p as Record<string, unknown> | undefined) ?? 'Participant', uid: p?.academy_uid ?? null };
  });
}
