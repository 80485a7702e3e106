/**
 * S7 push planning. Pure: from the outbox, which ops can go now and how to group them.
 * - Only the signed-in user's ops (S11).
 * - Per record, only the oldest op may go (order); a rejected or in-flight head blocks its record.
 * - An op whose references still name a temporary id waits for that record's create (S2/S7).
 * - Creates of one entity go together through bulkCreate (one request instead of N; bulk is all
 *   or nothing, so an op that was in a failed bulk goes alone next time); creates whose outcome
 *   is unknown are first looked up by client_ref (S3), in one filter call per entity.
 * - Updates of one entity share one fetch of the server rows for the S4 merge.
 */
import type { OutboxOp } from '../db';
import type { EntityName } from '../../../shared/entities';
import { unreachable } from '../../domain/unreachable';
import { isTempId, referencesFrom } from './references';

export type PushStep =
  | { kind: 'create'; entity: EntityName; seqs: number[] }
  | { kind: 'lookup'; entity: EntityName; seqs: number[] }
  | { kind: 'update'; entity: EntityName; seqs: number[] }
  | { kind: 'delete'; entity: EntityName; seqs: number[] };

export interface PushPlan {
  steps: PushStep[];
  /** Ops held back, and why (for tests and the Sync page). */
  waiting: Array<{ seq: number; reason: 'order' | 'dependency' | 'backoff' | 'blocked' }>;
  /** Earliest time a backed-off op becomes ready, or null. */
  nextAttemptAt: number | null;
  /** Ops of other users, never sent under this user's sign-in (S11). */
  foreign: number;
}

export interface PlanInput {
  ops: OutboxOp[];
  userId: string;
  now: number;
  /** 100 keeps a bulk request well under the server's body limits while saving 99 round trips. */
  maxBatch?: number;
}

function dependsOnUncreated(op: OutboxOp): boolean {
  if (op.kind === 'delete') return false;
  return referencesFrom(op.entity).some((r) => isTempId(op.data[r.field]));
}

export function planPush({ ops, userId, now, maxBatch = 100 }: PlanInput): PushPlan {
  const plan: PushPlan = { steps: [], waiting: [], nextAttemptAt: null, foreign: 0 };
  const heads = new Map<string, OutboxOp>();
  const ordered = [...ops].sort((a, b) => a.seq! - b.seq!);
  for (const op of ordered) {
    if (op.user_id !== userId) {
      plan.foreign++;
      continue;
    }
    const key = `${op.entity}\u0000${op.record_id}`;
    if (heads.has(key)) {
      plan.waiting.push({ seq: op.seq!, reason: 'order' });
      continue;
    }
    heads.set(key, op);
  }

  const groups = new Map<string, { kind: PushStep['kind']; entity: EntityName; seqs: number[] }>();
  const add = (kind: PushStep['kind'], entity: EntityName, seq: number, alone = false) => {
    const key = alone ? `${kind}:${entity}:${seq}` : `${kind}:${entity}`;
    const g = groups.get(key) ?? { kind, entity, seqs: [] };
    g.seqs.push(seq);
    groups.set(key, g);
  };

  for (const op of heads.values()) {
    const seq = op.seq!;
    if (op.state !== 'pending') {
      plan.waiting.push({ seq, reason: 'blocked' });
      continue;
    }
    if (op.next_attempt_at > now) {
      plan.waiting.push({ seq, reason: 'backoff' });
      plan.nextAttemptAt = Math.min(plan.nextAttemptAt ?? Infinity, op.next_attempt_at);
      continue;
    }
    if (dependsOnUncreated(op) || (op.kind !== 'create' && isTempId(op.record_id))) {
      plan.waiting.push({ seq, reason: 'dependency' });
      continue;
    }
    switch (op.kind) {
      case 'create':
        if (op.outcome_unknown) add('lookup', op.entity, seq);
        else add('create', op.entity, seq, op.no_bulk === true);
        break;
      case 'update':
        add('update', op.entity, seq);
        break;
      case 'delete':
        add('delete', op.entity, seq, true);
        break;
      default:
        unreachable(op.kind, 'op kind');
    }
  }

  for (const g of groups.values()) {
    for (let i = 0; i < g.seqs.length; i += maxBatch) {
      plan.steps.push({ kind: g.kind, entity: g.entity, seqs: g.seqs.slice(i, i + maxBatch) });
    }
  }
  return plan;
}
