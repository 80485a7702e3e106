/**
 * Issue #23: taking attendance. Each tap is one local write (S1): the mirror row and its outbox op
 * in one transaction, never a wait on the network. The pair (session, participant) names at most
 * one record (S16): a tap changes the record the tablet holds for the pair (its own or one pulled
 * from another tablet), or creates it; `recorded_at` is the tap's time on this tablet, so the later
 * tap wins when two tablets marked the same person.
 */
import type { Attendance, AttendanceStatus } from '../../../shared/entities';
import type { DataContext } from '../context';
import { guardQuota, RecordNotFoundError, RefusedError } from '../errors';
import { latestPerPair } from '../../domain/attendance';
import { resolvedId } from '../queries/by-id';
import { createRecord, knownEmail, myEmail, updateRecord, type EditBasis } from './record-writes';

export interface MarkInput {
  sessionId: string;
  participantId: string;
  /** The session's cohort when the caller knows it (the roster does): saves a read per tap. */
  cohortId?: string;
  status: AttendanceStatus;
  /** Left as it is when undefined. */
  note?: string | null;
}

/** The record the tablet holds for the pair (the later tap when it briefly holds two). */
async function heldRecord(ctx: DataContext, sessionId: string, participantId: string): Promise<Attendance | undefined> {
  const rows = await ctx.db.attendance.where('[session_id+participant_id]').equals([sessionId, participantId]).toArray();
  return latestPerPair(rows)[0];
}

async function markOne(ctx: DataContext, input: MarkInput, by: string | null, at: string): Promise<Attendance> {
  const sessionId = await resolvedId(ctx, input.sessionId);
  const participantId = await resolvedId(ctx, input.participantId);
  const held = await heldRecord(ctx, sessionId, participantId);
  const change: Partial<Attendance> = { status: input.status, recorded_by: by, recorded_at: at };
  if (input.note !== undefined) change.note = input.note?.trim() || null;
  if (held) return updateRecord<Attendance>(ctx, 'Attendance', held.id, change);
  const cohortId = input.cohortId ? await resolvedId(ctx, input.cohortId) : (await ctx.db.sessions.get(sessionId))?.cohort_id;
  if (!cohortId) throw new RecordNotFoundError('Session', input.sessionId);
  return createRecord<Attendance>(ctx, 'Attendance', {
    session_id: sessionId,
    cohort_id: cohortId,
    participant_id: participantId,
    note: null,
    ...change,
  });
}

/** One tap: set this participant's status at this session. */
export async function markAttendance(ctx: DataContext, input: MarkInput): Promise<Attendance> {
  // Known after the first tap: no wait before the write starts, so the tablet's IndexedDB works on
  // it while the screen draws the tap (they share one thread: every await here comes after the draw).
  const by = knownEmail(ctx) ?? (await myEmail(ctx));
  const at = new Date(ctx.now()).toISOString();
  const { db } = ctx;
  return guardQuota(() => db.transaction('rw', [db.attendance, db.sessions, db.outbox, db.aliases], () => markOne(ctx, input, by, at)));
}

/**
 * "Mark everyone present": every listed participant who has no record at this session yet, in one
 * transaction (all or none). Those already marked keep their status: the exceptions come after.
 * Returns how many were marked.
 */
export async function markEveryonePresent(ctx: DataContext, sessionId: string, participantIds: readonly string[]): Promise<number> {
  if (participantIds.length === 0) throw new RefusedError('Nobody is on this roster yet.');
  const by = await myEmail(ctx);
  const at = new Date(ctx.now()).toISOString();
  const { db } = ctx;
  return guardQuota(() =>
    db.transaction('rw', [db.attendance, db.sessions, db.outbox, db.aliases], async () => {
      const realSession = await resolvedId(ctx, sessionId);
      let marked = 0;
      for (const participantId of participantIds) {
        if (await heldRecord(ctx, realSession, await resolvedId(ctx, participantId))) continue;
        await markOne(ctx, { sessionId: realSession, participantId, status: 'present' }, by, at);
        marked++;
      }
      return marked;
    }),
  );
}

/**
 * Change the note of a participant's record at a session (creating it as present when there is none).
 * `basis`: the record as the note form opened (S18), when another device may have changed it since.
 */
export async function setAttendanceNote(ctx: DataContext, sessionId: string, participantId: string, note: string, basis?: EditBasis): Promise<Attendance> {
  const { db } = ctx;
  return guardQuota(() =>
    db.transaction('rw', [db.attendance, db.sessions, db.outbox, db.aliases, db.users], async () => {
      const held = await heldRecord(ctx, await resolvedId(ctx, sessionId), await resolvedId(ctx, participantId));
      if (held) return updateRecord<Attendance>(ctx, 'Attendance', held.id, { note: note.trim() || null }, undefined, basis ? { basis } : undefined);
      return markOne(ctx, { sessionId, participantId, status: 'present', note }, await myEmail(ctx), new Date(ctx.now()).toISOString());
    }),
  );
}
