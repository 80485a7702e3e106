/**
 * The Sync page's choices for ops the server refused and for conflicts (S4, S6, S8). Nothing is
 * dropped silently: discarding is a person's explicit act, and it puts the mirror back to what
 * the server has (or will have) so no local-only change is left without an op to carry it.
 */
import { TABLE_OF, type OutboxOp, type PassageDB } from '../db';
import type { DataContext } from '../context';
import { syncNow } from './sync-now';
import { bodyOf, myEmail, requeueAsCreate, updateRecord } from './record-writes';
import { referencesTo } from '../sync/references';
import { inAllTables, opsOfRecord } from '../sync/mirror-writes';
import { forgetReconcile, saysVanished } from '../sync/vanished';
import { unreachable } from '../../domain/unreachable';
import { TAP_TIME_FIELD } from '../sync/later-tap';
import { sameValue } from '../sync/same-value';

/** Send a rejected (or backed-off) op again now. */
export async function retryOp(ctx: DataContext, seq: number): Promise<void> {
  await ctx.db.outbox.update(seq, { state: 'pending', attempts: 0, next_attempt_at: 0, last_error: null });
  syncNow(ctx);
}

/** Change a rejected op's fields (and the mirror with them), then send it again. */
export async function editRejectedOp(ctx: DataContext, seq: number, data: Record<string, unknown>): Promise<void> {
  const d = ctx.db;
  await inAllTables(d, async () => {
    const op = await d.outbox.get(seq);
    if (!op || op.kind === 'delete') return;
    const table = d.table(TABLE_OF[op.entity]);
    const row = (await table.get(op.record_id)) as Record<string, unknown> | undefined;
    const fields = bodyOf(data);
    const patch: Partial<OutboxOp> = { data: { ...op.data, ...fields }, state: 'pending', attempts: 0, next_attempt_at: 0, last_error: null };
    if (op.kind === 'update') {
      const base_values = { ...op.base_values };
      for (const f of Object.keys(fields)) if (!(f in base_values)) base_values[f] = row?.[f] ?? null;
      patch.base_values = base_values;
    }
    await d.outbox.update(seq, patch);
    if (row) await table.put({ ...row, ...fields });
  });
  syncNow(ctx);
}

/**
 * Give up an op on purpose. A discarded create also discards what depends on it. An op the server
 * answered 404 (its record was deleted there) takes the record out of the mirror at once, with its
 * other queued ops and its open 'vanished' conflict, and a reconcile of that entity runs in the
 * sync this starts (issue #9.7): it is no longer listed, opened or offered for enrolment.
 */
export async function discardOp(ctx: DataContext, seq: number): Promise<void> {
  const d = ctx.db;
  const gone = await inAllTables(d, async () => {
    const op = await d.outbox.get(seq);
    if (!op) return false;
    if (op.kind !== 'create' && saysVanished(op.last_error)) {
      await acceptVanished(d, op);
      return true;
    }
    await discard(d, op);
    return false;
  });
  if (gone) syncNow(ctx);
}

async function acceptVanished(d: PassageDB, op: OutboxOp): Promise<void> {
  for (const o of await opsOfRecord(d, op.entity, op.record_id)) await d.outbox.delete(o.seq!);
  await d.table(TABLE_OF[op.entity]).delete(op.record_id);
  await d.conflicts
    .where('[entity+record_id]')
    .equals([op.entity, op.record_id])
    .filter((c) => c.kind === 'vanished' && c.status === 'open')
    .modify({ status: 'took_server' });
  await forgetReconcile(d, [op.entity, ...referencesTo(op.entity).map((r) => r.entity)]);
}

async function discard(d: PassageDB, op: OutboxOp): Promise<void> {
  const table = d.table(TABLE_OF[op.entity]);
  switch (op.kind) {
    case 'create': {
      for (const o of await opsOfRecord(d, op.entity, op.record_id)) await d.outbox.delete(o.seq!);
      await table.delete(op.record_id);
      // Records that point at it can never reach the server either (e.g. its enrollments).
      for (const ref of referencesTo(op.entity)) {
        const dependents = await d.outbox
          .filter((o) => o.entity === ref.entity && o.kind === 'create' && o.data[ref.field] === op.record_id)
          .toArray();
        for (const dep of dependents) await discard(d, dep);
      }
      return;
    }
    case 'update': {
      await d.outbox.delete(op.seq!);
      const row = (await table.get(op.record_id)) as Record<string, unknown> | undefined;
      if (!row) return;
      const reverted = { ...row };
      for (const f of Object.keys(op.data)) reverted[f] = op.base_values?.[f] ?? null;
      for (const later of await opsOfRecord(d, op.entity, op.record_id)) if (later.kind === 'update') Object.assign(reverted, later.data);
      await table.put(reverted);
      return;
    }
    case 'delete':
      await d.outbox.delete(op.seq!);
      if (op.snapshot) await table.put(op.snapshot);
      return;
    default:
      return unreachable(op.kind, 'op kind');
  }
}

/**
 * A person's answer to a conflict. Field conflicts: 'local' keeps the value that was sent,
 * 'server' queues the other device's value back. Vanished records: 'server' accepts the deletion,
 * 'local' creates the record again from this device's copy.
 */
export async function resolveConflict(ctx: DataContext, id: number, choice: 'local' | 'server'): Promise<void> {
  const d = ctx.db;
  const conflict = await d.conflicts.get(id);
  if (!conflict || conflict.status !== 'open') return;
  const status = choice === 'local' ? 'kept_local' : 'took_server';
  if (conflict.kind === 'field') {
    // The record holds whichever value won: the local one (S4) or a later tap of another device
    // (S16). Either choice writes its value back when the record holds the other one.
    const value = choice === 'server' ? conflict.server_value : conflict.local_value;
    // Choosing is a tap of its own (S16): now, by this person, so it is not outvoted again.
    const tapField = TAP_TIME_FIELD[conflict.entity];
    const row = tapField ? ((await d.table(TABLE_OF[conflict.entity]).get(conflict.record_id)) as Record<string, unknown> | undefined) : undefined;
    const retap = tapField && row && !sameValue(row[conflict.field], value) ? { [tapField]: new Date(ctx.now()).toISOString(), recorded_by: await myEmail(ctx) } : {};
    await updateRecord(ctx, conflict.entity, conflict.record_id, { [conflict.field]: value, ...retap }, undefined, { resolvesConflict: true });
    await d.conflicts.update(id, { status });
    return;
  }
  await inAllTables(d, async () => {
    const table = d.table(TABLE_OF[conflict.entity]);
    for (const o of await opsOfRecord(d, conflict.entity, conflict.record_id)) await d.outbox.delete(o.seq!);
    // A record removed from the mirror when the server answered 404 lives on in the conflict.
    const row = ((await table.get(conflict.record_id)) ?? conflict.local_value) as Record<string, unknown> | undefined;
    if (choice === 'server' || !row) {
      await table.delete(conflict.record_id);
    } else {
      await requeueAsCreate(ctx, conflict.entity, row);
    }
    await d.conflicts.update(id, { status });
  });
  syncNow(ctx);
}
