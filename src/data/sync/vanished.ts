import { TABLE_OF, type PassageDB } from '../db';
import type { EntityName } from '../../../shared/entities';
import { opsOfRecord } from './mirror-writes';
import { VANISHED_MESSAGE } from './reconcile-runner';
import { referencesTo } from './references';

const WORD: Record<EntityName, string> = {
  Participant: 'participant',
  Cohort: 'cohort',
  Program: 'program',
  Site: 'site',
  Enrollment: 'enrollment',
  Session: 'session',
  Outcome: 'outcome',
  Attendance: 'attendance record',
  User: 'user',
};

/** The message of a queued op whose record points at a record the server deleted. */
export function danglingMessage(target: EntityName): string {
  return `The ${WORD[target]} it belongs to was deleted on the server.`;
}

/**
 * Issue #9.7 (S6, S8): the server answered 404 for a queued op, so the record is gone there. In the
 * caller's transaction over all tables:
 * - the row leaves the mirror at once (not at the next reconcile, up to 10 minutes later), so it is
 *   no longer listed, opened or offered for enrolment;
 * - the record's queued edits stay in the outbox, rejected with VANISHED_MESSAGE, and a 'vanished'
 *   conflict keeps this device's copy, so "Keep mine" can create it again: nothing is dropped;
 *   a queued delete of it is simply done;
 * - queued ops of other records that point at it (an enrollment created offline for a participant
 *   deleted on the server) are rejected with a message instead of creating dangling references;
 * - a reconcile of the entity and of those pointing at it runs in this cycle (its last run is
 *   forgotten), so whatever else the server deleted with it leaves the mirror too.
 * A record being created again on purpose ("Keep mine" earlier) is left alone.
 * `reconcile: false`: the change feed's deletions (S17) — whatever else the server deleted comes
 * as deletions too, so no id listing is needed.
 */
export async function removeVanished(db: PassageDB, entity: EntityName, id: string, now: number, options: { reconcile?: boolean } = {}): Promise<void> {
  const table = db.table(TABLE_OF[entity]);
  const ops = await opsOfRecord(db, entity, id);
  if (ops.some((o) => o.kind === 'create')) return;
  const row = (await table.get(id)) as Record<string, unknown> | undefined;
  let edits = false;
  for (const op of ops) {
    if (op.kind === 'delete') await db.outbox.delete(op.seq!);
    else {
      edits = true;
      await db.outbox.update(op.seq!, { state: 'rejected', last_error: { status: 404, message: VANISHED_MESSAGE } });
    }
  }
  if (edits && row) await openVanishedConflict(db, entity, id, row, now);
  await table.delete(id);
  await rejectDependants(db, entity, id);
  if (options.reconcile !== false) await forgetReconcile(db, [entity, ...referencesTo(entity).map((r) => r.entity)]);
}

async function openVanishedConflict(db: PassageDB, entity: EntityName, id: string, row: Record<string, unknown>, now: number): Promise<void> {
  const open = await db.conflicts
    .where('[entity+record_id]')
    .equals([entity, id])
    .filter((c) => c.kind === 'vanished' && c.status === 'open')
    .count();
  if (open > 0) return;
  await db.conflicts.add({
    entity,
    record_id: id,
    field: '*',
    local_value: row,
    server_value: null,
    server_updated_date: null,
    detected_at: now,
    status: 'open',
    kind: 'vanished',
  });
}

/** Pending ops of other records whose fields point at the vanished one: a person decides. */
async function rejectDependants(db: PassageDB, target: EntityName, id: string): Promise<void> {
  for (const ref of referencesTo(target)) {
    const dependants = await db.outbox
      .filter((o) => o.entity === ref.entity && o.kind !== 'delete' && o.state === 'pending' && o.data[ref.field] === id)
      .toArray();
    for (const dep of dependants) {
      await db.outbox.update(dep.seq!, { state: 'rejected', last_error: { status: 404, message: danglingMessage(target) } });
    }
  }
}

/** The engine reconciles these entities in its next reconcile pass (S6), whatever the interval. */
export async function forgetReconcile(db: PassageDB, entities: EntityName[]): Promise<void> {
  for (const entity of new Set(entities)) await db.syncState.update(entity, { last_reconciled_at: null });
}

/** Whether a rejected op says its record is gone from the server. */
export function saysVanished(error: { status?: number } | null | undefined): boolean {
  return error?.status === 404;
}
