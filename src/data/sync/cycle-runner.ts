import { TABLE_OF } from '../db';
import type { EntityName } from '../../../shared/entities';
import { stopsCycle, type ErrorClass } from './classify-error';
import { readSyncStates } from './first-sync';
import { runLanes } from './lanes';
import { pullChanges } from './feed-pull';
import { currentKeys } from './scoped-pull';
import { evictBeyondScope } from './scope-mirror';
import { pushAll } from './push-runner';
import { sendExportNotices } from './export-notices';
import { reconcileEntity } from './reconcile-runner';
import type { RunnerContext } from './runner-context';

/** What one cycle ended with: the stop that ended it early (or null), and when a backed-off op is due. */
export interface CycleResult {
  stop: ErrorClass | null;
  nextAttemptAt: number | null;
}

/**
 * The work of one sync cycle, in order: push (S7), the CSV exports to report (issue #26), pull every entity (S5; within the tablet's
 * scope when it has one, issue #22), reconcile the entities
 * whose last id listing is older than `reconcileMs` (S6), and push again — a pull may have adopted a
 * lost create (S3) and so unblocked ops that wait on it. The engine decides when this runs.
 */
export async function runCycle(ctx: RunnerContext, entities: EntityName[]): Promise<CycleResult> {
  const push = await pushAll(ctx);
  if (push.stop) return { stop: push.stop, nextAttemptAt: push.nextAttemptAt };
  // Issue #26: CSV exports made since the last contact, reported to the audit.
  const reported = await sendExportNotices(ctx);
  if (reported) return { stop: reported, nextAttemptAt: push.nextAttemptAt };
  const now = ctx.clock.now();
  // Issue #24.1 (S17): one change-feed request when the server offers it, else entity by entity.
  const pulled = await pullChanges(ctx, entities);
  if (pulled.stop) return { stop: pulled.stop, nextAttemptAt: push.nextAttemptAt };
  const due = await dueForReconcile(ctx, entities, now);
  const reconcileStop = await runLanes(
    due,
    ctx.tuning.concurrency,
    async (entity) => reconcileEntity(ctx, entity, await currentKeys(ctx, pulled.scope, entity)),
    stopsCycle,
  );
  if (reconcileStop) return { stop: reconcileStop, nextAttemptAt: push.nextAttemptAt };
  // A reconcile within a scope refreshes rows that moved out of it (issue #22): they leave now.
  if (pulled.scope && due.length > 0) await evictBeyondScope(ctx.db, pulled.scope, ctx.clock.now());
  const again = await pushAll(ctx);
  return { stop: again.stop, nextAttemptAt: again.nextAttemptAt };
}

/** Entities with something to reconcile (a cursor or rows) whose last listing is `reconcileMs` old. */
async function dueForReconcile(ctx: RunnerContext, entities: EntityName[], now: number): Promise<EntityName[]> {
  const states = await readSyncStates(ctx.db, entities);
  const due: EntityName[] = [];
  for (const entity of entities) {
    const state = states.get(entity);
    if (state?.last_reconciled_at != null && now - state.last_reconciled_at < ctx.tuning.reconcileMs) continue;
    if (!state?.cursor && !(await ctx.db.table(TABLE_OF[entity]).count())) continue;
    due.push(entity);
  }
  return due;
}
