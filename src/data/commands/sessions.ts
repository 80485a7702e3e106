/**
 * Issue #23.5: a cohort's sessions, scheduled by administrators and the cohort's lead coach (the
 * server refuses others: server/auth/permissions.ts). A session with attendance is not deleted
 * here, and the server refuses it too (409 IN_USE), like a program that cohorts use.
 */
import type { Session } from '../../../shared/entities';
import type { DataContext } from '../context';
import { guardQuota, InUseError, RefusedError } from '../errors';
import { planWeeklySessions, type WeeklyPlanInput } from '../../domain/session-plan';
import { resolvedId } from '../queries/by-id';
import { createRecord, deleteRecord, updateRecord, type EditBasis } from './record-writes';

export type SessionInput = Pick<Session, 'cohort_id'> & Partial<Pick<Session, 'session_number' | 'topic' | 'scheduled_at'>>;

export async function createSession(ctx: DataContext, input: SessionInput): Promise<Session> {
  if (!input.cohort_id) throw new RefusedError('A session belongs to a cohort.');
  return createRecord<Session>(ctx, 'Session', {
    cohort_id: await resolvedId(ctx, input.cohort_id),
    session_number: input.session_number ?? null,
    topic: input.topic?.trim() || null,
    scheduled_at: input.scheduled_at ?? null,
  });
}

/** `basis`: the session as the edit form opened (S18), when it may have changed on another device since. */
export function updateSession(ctx: DataContext, id: string, patch: Partial<Omit<SessionInput, 'cohort_id'>>, basis?: EditBasis): Promise<Session> {
  const clean = { ...patch, ...(patch.topic !== undefined ? { topic: patch.topic?.trim() || null } : {}) };
  return updateRecord<Session>(ctx, 'Session', id, clean, undefined, basis ? { basis } : undefined);
}

/** Refused with InUseError while this tablet holds attendance taken at the session. */
export function deleteSession(ctx: DataContext, id: string): Promise<void> {
  const { db } = ctx;
  return deleteRecord(ctx, 'Session', id, {
    tables: [db.attendance],
    check: async (realId) => {
      const count = await db.attendance.where('session_id').equals(realId).count();
      if (count > 0) throw new InUseError('session', count);
    },
  });
}

/** "Generate weekly sessions": the planned sessions, created in one transaction. */
export async function generateWeeklySessions(ctx: DataContext, cohortId: string, plan: WeeklyPlanInput): Promise<Session[]> {
  const planned = planWeeklySessions(plan);
  if (planned.length === 0) throw new RefusedError('No session falls on that day between the dates given.');
  const { db } = ctx;
  const realCohort = await resolvedId(ctx, cohortId);
  return guardQuota(() =>
    db.transaction('rw', [db.sessions, db.outbox], async () => {
      const made: Session[] = [];
      for (const s of planned) made.push(await createRecord<Session>(ctx, 'Session', { cohort_id: realCohort, ...s }));
      return made;
    }),
  );
}
