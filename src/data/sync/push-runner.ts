/**
 * Push: plan, run the ready steps (a few at a time), plan again until nothing is ready (S7).
 * Each success lands in one transaction (S1); each failure goes through recordFailure (S8).
 */
import { TABLE_OF, type OutboxOp } from '../db';
import type { EntityName } from '../../../shared/entities';
import { unreachable } from '../../domain/unreachable';
import { classifyError, type ErrorClass } from './classify-error';
import { fieldMerge, withSent } from './field-merge';
import { runLanes } from './lanes';
import { applyAnsweredByHolder, applyCreatedMany, applyUpdated, inAllTables, type FieldConflict } from './mirror-writes';
import { hasNaturalKey, laterServerTap } from './later-tap';
import { recordFailure, takeOps } from './op-failures';
import { planPush, type PushStep } from './plan-push';
import type { RunnerContext } from './runner-context';
import { sameValue } from './same-value';
import { previousOf, type Row } from './types';
import { removeVanished } from './vanished';
import { writeMetaOf } from './edit-times';

export interface PushResult {
  /** Set when the whole queue must stop (offline, 401, 429). */
  stop: ErrorClass | null;
  /** When the earliest backed-off op becomes ready. */
  nextAttemptAt: number | null;
}

/** A plan/run round always changes some op's state, so this is only a guard against a bug. */
const MAX_ROUNDS = 10_000;

export async function pushAll(ctx: RunnerContext): Promise<PushResult> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const ops = await ctx.db.outbox.where('user_id').equals(ctx.userId).toArray();
    const plan = planPush({ ops, userId: ctx.userId, now: ctx.clock.now(), maxBatch: ctx.tuning.maxBulk });
    if (plan.steps.length === 0) return { stop: null, nextAttemptAt: plan.nextAttemptAt };
    // Once one step says stop (offline, 401, 429), start no more: their ops stay pending. Every
    // lane is waited for, even when one throws: no request of this push outlives it.
    const stop = await runLanes(plan.steps, ctx.tuning.concurrency, (step) => runStep(ctx, step), (result) => result !== null);
    if (stop) return { stop, nextAttemptAt: null };
  }
  throw new Error('push made no progress');
}

function runStep(ctx: RunnerContext, step: PushStep): Promise<ErrorClass | null> {
  switch (step.kind) {
    case 'create':
      return pushCreates(ctx, step.entity, step.seqs);
    case 'lookup':
      return lookUpCreates(ctx, step.entity, step.seqs);
    case 'update':
      return pushUpdates(ctx, step.entity, step.seqs);
    case 'delete':
      return pushDeletes(ctx, step.entity, step.seqs);
    default:
      return unreachable(step, 'push step');
  }
}

/** Server rows back from a create, matched to ops by client_ref (falling back to order). */
function matchRows(ops: OutboxOp[], rows: Row[]): Array<[OutboxOp, Row]> {
  const byRef = new Map(rows.filter((r) => typeof r.client_ref === 'string').map((r) => [r.client_ref as string, r]));
  return ops.map((op, i) => [op, byRef.get(op.client_ref ?? '') ?? rows[i]]);
}

async function pushCreates(ctx: RunnerContext, entity: EntityName, seqs: number[]): Promise<ErrorClass | null> {
  const ops = await takeOps(ctx, seqs);
  if (ops.length === 0) return null;
  let rows: Row[];
  try {
    // Issue #26: each record's edit time on the device travels with it, in the body's order.
    rows =
      ops.length === 1
        ? [await ctx.transport.create(entity, ops[0].data, writeMetaOf(ops))]
        : await ctx.transport.bulkCreate(entity, ops.map((o) => o.data), writeMetaOf(ops));
  } catch (error) {
    const cls = classifyError(error);
    if (cls.kind === 'reject' && ops.length > 1) {
      // Bulk is all or nothing and a 4xx applied nothing: find the bad op by sending each alone.
      await ctx.db.outbox.bulkUpdate(ops.map((o) => ({ key: o.seq!, changes: { state: 'pending', no_bulk: true, outcome_unknown: false } })));
      return null;
    }
    return recordFailure(ctx, ops, cls);
  }
  const matched = matchRows(ops, rows).map(([op, server]) => ({ op, server }));
  // S16: a create of a natural key the server already held is answered with that record (another
  // device's): the later tap wins, the other becomes a conflict. Everything else is an ordinary S2.
  const held = (m: { op: OutboxOp; server: Row }) => hasNaturalKey(entity) && m.server.client_ref !== m.op.client_ref;
  await inAllTables(ctx.db, async () => {
    await applyCreatedMany(ctx.db, matched.filter((m) => !held(m)));
    for (const m of matched.filter(held)) await applyAnsweredByHolder(ctx.db, m.op, m.server, ctx.clock.now());
  });
  return null;
}

/** S3: creates whose answer was lost. Adopt what the server has; send again only what it lacks. */
async function lookUpCreates(ctx: RunnerContext, entity: EntityName, seqs: number[]): Promise<ErrorClass | null> {
  const ops = await takeOps(ctx, seqs);
  if (ops.length === 0) return null;
  let rows: Row[];
  try {
    const refs = ops.map((o) => o.client_ref).filter((r): r is string => !!r);
    rows = await ctx.transport.filter(entity, { client_ref: { $in: refs } }, 'created_date', refs.length + 1);
  } catch (error) {
    return recordFailure(ctx, ops, classifyError(error));
  }
  const byRef = new Map(rows.map((r) => [r.client_ref as string, r]));
  await inAllTables(ctx.db, async () => {
    const adopted: Array<{ op: OutboxOp; server: Row }> = [];
    for (const op of ops) {
      const found = op.client_ref ? byRef.get(op.client_ref) : undefined;
      if (found) adopted.push({ op, server: found });
      else await ctx.db.outbox.update(op.seq!, { state: 'pending', outcome_unknown: false });
    }
    await applyCreatedMany(ctx.db, adopted);
  });
  return null;
}

async function pushUpdates(ctx: RunnerContext, entity: EntityName, seqs: number[]): Promise<ErrorClass | null> {
  const ops = await takeOps(ctx, seqs);
  if (ops.length === 0) return null;
  let current: Row[];
  try {
    current = await ctx.transport.fetchMany(entity, ops.map((o) => o.record_id));
  } catch (error) {
    return recordFailure(ctx, ops, classifyError(error));
  }
  const byId = new Map(current.map((r) => [r.id, r]));
  const planned: MergedUpdate[] = [];
  for (const op of ops) {
    const server = byId.get(op.record_id);
    if (!server) {
      // Deleted on the server (issue #9.7): out of the mirror now, the edit kept as a conflict.
      await inAllTables(ctx.db, () => removeVanished(ctx.db, op.entity, op.record_id, ctx.clock.now()));
      continue;
    }
    planned.push(await mergeUpdate(ctx, op, server));
  }
  // Nothing left to send (both sides made the same change): the server row is the answer.
  const settled = planned.filter((u) => Object.keys(u.send).length === 0);
  await inAllTables(ctx.db, async () => {
    for (const u of settled) await applyUpdated(ctx.db, u.op, u.server, u.detected, ctx.clock.now());
  });
  const toSend = planned.filter((u) => Object.keys(u.send).length > 0);
  // One bulk PUT instead of N round trips; not for the own User record (that is PUT me), and not
  // for ops that were in a refused bulk (it is all or nothing, so they go alone to find the bad one).
  // Issue #26: a person's answer to a conflict goes alone, so its request alone says so.
  const alone = (u: MergedUpdate) => !!u.op.resolves_conflict;
  const together = toSend.filter((u) => !alone(u));
  const bulk = entity !== 'User' && together.length > 1 && toSend.every((u) => !u.op.no_bulk) ? together : [];
  const singles = toSend.filter((u) => !bulk.includes(u));
  if (bulk.length > 0) {
    let rows: Row[] | null = null;
    try {
      rows = await ctx.transport.bulkUpdate(
        entity,
        bulk.map((u) => ({ ...u.send, id: u.op.record_id })),
        writeMetaOf(bulk.map((u) => u.op)),
      );
    } catch (error) {
      const cls = classifyError(error);
      if (cls.kind !== 'reject') {
        // The ops that would have gone alone were not sent: back to pending as they were.
        await ctx.db.outbox.bulkUpdate(singles.map((u) => ({ key: u.op.seq!, changes: { state: 'pending' } })));
        return recordFailure(ctx, bulk.map((u) => u.op), cls);
      }
      await ctx.db.outbox.bulkUpdate(bulk.map((u) => ({ key: u.op.seq!, changes: { state: 'pending', no_bulk: true } })));
    }
    if (rows) {
      const answers = new Map(rows.map((r) => [r.id, r]));
      await inAllTables(ctx.db, async () => {
        for (const u of bulk) {
          const answer = answers.get(u.op.record_id);
          await applyUpdated(ctx.db, u.op, answer ?? u.server, withOverwritten(u, answer), ctx.clock.now());
        }
      });
    }
  }
  for (let i = 0; i < singles.length; i++) {
    const stop = await sendOneUpdate(ctx, singles[i]);
    if (stop) {
      await recordFailure(ctx, singles.slice(i + 1).map((u) => u.op), stop);
      return stop;
    }
  }
  return null;
}

interface MergedUpdate {
  op: OutboxOp;
  server: Row;
  send: Record<string, unknown>;
  detected: Record<string, FieldConflict>;
}

/** S4 merge of one op with the server's row, remembered on the op before anything is sent. */
async function mergeUpdate(ctx: RunnerContext, op: OutboxOp, server: Row): Promise<MergedUpdate> {
  const merge = laterServerTap(op.entity, op, server) ?? fieldMerge(op, server);
  const serverDate = (server.updated_date as string | undefined) ?? null;
  const detected: Record<string, FieldConflict> = { ...op.detected_conflicts };
  for (const [field, c] of Object.entries(merge.conflicts)) detected[field] = { ...c, server_updated_date: serverDate };
  // If the answer is lost, the retry sees its own value on the server and would otherwise forget
  // the conflict; the next merge must compare with what the server had now, and take a value this
  // attempt sends, found there later, for this device's own.
  await ctx.db.outbox.update(op.seq!, {
    base_values: { ...op.base_values, ...merge.newBase },
    base_updated_date: serverDate,
    detected_conflicts: detected,
    sent_values: withSent(op.sent_values, merge.send),
  });
  return { op, server, send: merge.send, detected };
}

async function sendOneUpdate(ctx: RunnerContext, u: MergedUpdate): Promise<ErrorClass | null> {
  let result: Row;
  try {
    result = await ctx.transport.update(u.op.entity, u.op.record_id, u.send, writeMetaOf([u.op]));
  } catch (error) {
    const cls = classifyError(error);
    // Deleted between the fetch and the PUT (issue #9.7).
    if (cls.kind === 'reject' && cls.status === 404 && u.op.entity !== 'User') {
      await inAllTables(ctx.db, () => removeVanished(ctx.db, u.op.entity, u.op.record_id, ctx.clock.now()));
      return null;
    }
    return recordFailure(ctx, [u.op], cls);
  }
  await inAllTables(ctx.db, () => applyUpdated(ctx.db, u.op, result, withOverwritten(u, result), ctx.clock.now()));
  return null;
}

/**
 * Issue #9.10: the platform has no conditional update, so another device may write a field between
 * this device's fetch (the merge's base) and its PUT; the later PUT wins. When the server says what
 * the PUT overwrote (previousOf), a sent field whose previous value is neither the fetched one nor
 * the one sent was someone else's edit, now replaced: record it as a conflict a person can review.
 * Without that information (the platform itself) nothing changes.
 */
function withOverwritten(u: MergedUpdate, answer: Row | undefined): Record<string, FieldConflict> {
  const previous = previousOf(answer);
  if (!previous) return u.detected;
  if (previous.updated_date != null && previous.updated_date === u.server.updated_date) return u.detected;
  const detected = { ...u.detected };
  for (const [field, sent] of Object.entries(u.send)) {
    if (!(field in previous.values)) continue;
    const before = previous.values[field];
    if (sameValue(before, u.server[field]) || sameValue(before, sent)) continue;
    detected[field] = { local: sent, server: before ?? null, server_updated_date: previous.updated_date };
  }
  return detected;
}

async function pushDeletes(ctx: RunnerContext, entity: EntityName, seqs: number[]): Promise<ErrorClass | null> {
  const ops = await takeOps(ctx, seqs);
  for (const op of ops) {
    try {
      await ctx.transport.remove(entity, op.record_id, writeMetaOf([op]));
    } catch (error) {
      const cls = classifyError(error);
      // Already gone is what a delete wants (e.g. its earlier answer was lost).
      if (!(cls.kind === 'reject' && cls.status === 404)) {
        const stop = await recordFailure(ctx, [op], cls);
        if (stop) return stop;
        continue;
      }
    }
    await inAllTables(ctx.db, async () => {
      await ctx.db.outbox.delete(op.seq!);
      await ctx.db.table(TABLE_OF[entity]).delete(op.record_id);
    });
  }
  return null;
}
