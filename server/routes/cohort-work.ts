/**
 * Issue #23: Sessions and Attendance belong to a cohort, and a coach's right to write them depends
 * on their place in that cohort (server/auth/permissions.ts `COHORT_WORK`): the lead coach schedules
 * sessions, the lead and support coaches take attendance. This module looks the place up and keeps
 * an attendance record consistent with its session (a coach of one cohort cannot file attendance
 * under their cohort for another cohort's session).
 */
import type { Context } from 'hono';
import { HttpError, unprocessable } from '../errors';
import type { CohortRole } from '../auth/permissions';
import { placeInCohort } from '../../shared/cohort-place';
import type { EntityRecord } from '../store/types';
import { authorize, type ServerContext } from './context';

/** Entities whose writes a coach may make only for cohorts they coach. */
export const COHORT_WORK_ENTITIES: ReadonlySet<string> = new Set(['Session', 'Attendance']);

export const isCohortWork = (entity: string) => COHORT_WORK_ENTITIES.has(entity);

const COHORTS = 'passage.cohorts';

/** The cohorts one request has read: a bulk of 500 attendance records of one cohort reads it once. */
function cohortCache(c: Context): Map<string, Promise<EntityRecord | null>> {
  const store = c as unknown as { get(k: string): Map<string, Promise<EntityRecord | null>> | undefined; set(k: string, v: unknown): void };
  let cache = store.get(COHORTS);
  if (!cache) store.set(COHORTS, (cache = new Map()));
  return cache;
}

/** The caller's place in a cohort; administrators never need it (the table lets them do anything). */
export async function cohortRoleOf(ctx: ServerContext, c: Context, user: EntityRecord, cohortId: unknown): Promise<CohortRole> {
  if (typeof cohortId !== 'string' || cohortId === '') return 'none';
  const cache = cohortCache(c);
  if (!cache.has(cohortId)) cache.set(cohortId, ctx.store.get(ctx.appId, 'Cohort', cohortId));
  return placeInCohort(user.email, await cache.get(cohortId)!);
}

/** The weaker of two places: moving a session to another cohort needs the lead of both. */
function weaker(a: CohortRole, b: CohortRole): CohortRole {
  const rank: Record<CohortRole, number> = { none: 0, support: 1, lead: 2 };
  return rank[a] <= rank[b] ? a : b;
}

/**
 * The permission check of one write of a cohort's record. `stored` is the record as the server
 * has it (update, delete); `body` what the client sends (create, update).
 */
export async function authorizeCohortWork(
  ctx: ServerContext,
  c: Context,
  action: 'create' | 'update' | 'delete',
  entity: string,
  user: EntityRecord,
  write: { stored?: EntityRecord | null; body?: Record<string, unknown> },
): Promise<void> {
  if (user.role === 'admin') return;
  const fields = write.body ? Object.keys(write.body) : undefined;
  let role = await cohortRoleOf(ctx, c, user, write.stored ? write.stored.cohort_id : write.body?.cohort_id);
  if (write.stored && write.body?.cohort_id !== undefined && write.body.cohort_id !== write.stored.cohort_id) {
    role = weaker(role, await cohortRoleOf(ctx, c, user, write.body.cohort_id));
  }
  await authorize(ctx, c, action, entity, { fields, cohortRole: role });
}

/**
 * An attendance record names a session of its own cohort (422 otherwise). Checked on create and
 * whenever an update touches session_id or cohort_id; `stored` fills what a patch leaves out.
 */
export async function checkAttendanceSessions(
  ctx: ServerContext,
  entity: string,
  rows: Array<{ body: Record<string, unknown>; stored?: EntityRecord | null }>,
): Promise<void> {
  if (entity !== 'Attendance') return;
  const touched = rows.filter(({ body, stored }) => !stored || body.session_id !== undefined || body.cohort_id !== undefined);
  if (touched.length === 0) return;
  const merged = touched.map(({ body, stored }) => ({ ...stored, ...body }));
  const sessionIds = [...new Set(merged.map((r) => r.session_id).filter((id): id is string => typeof id === 'string'))];
  const sessions = sessionIds.length
    ? await ctx.store.list(ctx.appId, 'Session', { q: { id: { $in: sessionIds } }, fields: ['id', 'cohort_id'], limit: sessionIds.length + 1, sort: 'id' })
    : [];
  const cohortOf = new Map(sessions.map((s) => [s.id, s.cohort_id]));
  for (const row of merged) {
    if (!cohortOf.has(row.session_id as string)) throw unprocessable('The session of this attendance record does not exist', 'session_id');
    if (cohortOf.get(row.session_id as string) !== row.cohort_id) {
      throw unprocessable("The attendance record's cohort is not its session's cohort", 'cohort_id');
    }
  }
}

/**
 * A session with attendance stays in its cohort: its records name that cohort (and count in its
 * rates), so moving it would leave them pointing elsewhere. 409 IN_USE, like its delete.
 */
export async function checkSessionMoves(ctx: ServerContext, entity: string, rows: Array<{ body: Record<string, unknown>; stored?: EntityRecord | null }>): Promise<void> {
  if (entity !== 'Session') return;
  for (const { body, stored } of rows) {
    if (!stored || body.cohort_id === undefined || body.cohort_id === stored.cohort_id) continue;
    const count = await ctx.store.count(ctx.appId, 'Attendance', { session_id: stored.id });
    if (count > 0) {
      throw new HttpError(409, 'IN_USE', `Attendance was taken at this session (${count === 1 ? '1 record' : `${count} records`}). It cannot move to another cohort.`, {
        attendance_count: count,
      });
    }
  }
}
