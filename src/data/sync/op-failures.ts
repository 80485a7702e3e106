import type { OutboxOp, PassageDB } from '../db';
import { unreachable } from '../../domain/unreachable';
import { backoffDelay } from './backoff';
import type { ErrorClass } from './classify-error';
import type { RunnerContext } from './runner-context';

/**
 * S8: what a failed request does to its ops. Returns the error when it must stop the whole queue
 * (offline, 401, 429), or null when only these ops are affected. Nothing is ever dropped: every
 * branch leaves the op in the outbox, pending or rejected.
 */
export async function recordFailure(ctx: RunnerContext, ops: OutboxOp[], cls: ErrorClass): Promise<ErrorClass | null> {
  const now = ctx.clock.now();
  await ctx.db.transaction('rw', ctx.db.outbox, async () => {
    for (const op of ops) {
      const fresh = await ctx.db.outbox.get(op.seq!);
      if (!fresh) continue;
      const patch: Partial<OutboxOp> = { state: 'pending' };
      switch (cls.kind) {
        case 'offline':
        case 'throttle':
        case 'auth':
          // Not this op's fault: the engine holds the whole queue; the op's own backoff stays.
          break;
        case 'retry':
        case 'timeout': {
          // A timeout leaves a create flagged outcome_unknown (takeOps set it): looked up first.
          const attempts = fresh.attempts + 1;
          patch.attempts = attempts;
          patch.next_attempt_at = now + backoffDelay(attempts, ctx.random, cls.kind === 'retry' ? cls.retryAfterMs : undefined);
          patch.last_error = { status: cls.kind === 'retry' ? cls.status : undefined, message: cls.message };
          break;
        }
        case 'reject':
          patch.state = 'rejected';
          patch.attempts = fresh.attempts + 1;
          patch.last_error = { status: cls.status, code: cls.code, message: cls.message };
          if (cls.duplicateIds) patch.last_error.duplicate_ids = cls.duplicateIds;
          // A 4xx means the server did not apply it: no client_ref look-up needed on a retry.
          if (fresh.kind === 'create') patch.outcome_unknown = false;
          break;
        default:
          unreachable(cls, 'error class');
      }
      await ctx.db.outbox.update(op.seq!, patch);
    }
  });
  return cls.kind === 'offline' || cls.kind === 'auth' || cls.kind === 'throttle' ? cls : null;
}

/**
 * Mark ops in flight and return their current versions (a command may have merged more fields
 * into a pending op since the plan was made). A create is flagged outcome-unknown before it is
 * sent: if the tab dies mid-request, the next run looks its client_ref up first (S3).
 */
export async function takeOps(ctx: RunnerContext, seqs: number[]): Promise<OutboxOp[]> {
  // One read and one write for the batch (a get and an update per op took 0.3–1 s for 100 ops).
  return ctx.db.transaction('rw', ctx.db.outbox, async () => {
    const taken: OutboxOp[] = [];
    for (const op of await ctx.db.outbox.bulkGet(seqs)) {
      if (!op || op.state !== 'pending' || op.user_id !== ctx.userId) continue;
      const patch: Partial<OutboxOp> = { state: 'inflight' };
      if (op.kind === 'create') patch.outcome_unknown = true;
      taken.push({ ...op, ...patch });
    }
    await ctx.db.outbox.bulkPut(taken);
    return taken;
  });
}

/**
 * Ops left 'inflight' when no request of this engine is out: by a tab that died mid-request, or by
 * a push step that threw (a storage error while applying an answer, a bug). Their outcome is
 * unknown (S3): back to pending, a create flagged for a client_ref look-up before any resend.
 * Otherwise plan-push would treat them as blocked until the page is reloaded.
 */
export async function releaseInflight(db: PassageDB, userId?: string): Promise<number> {
  return db.outbox
    .where('state')
    .equals('inflight')
    .filter((o) => userId === undefined || o.user_id === userId)
    .modify((o) => {
      o.state = 'pending';
      if (o.kind === 'create') o.outcome_unknown = true;
    });
}

/** `releaseInflight` for one user: true once done, false when storage refused (try again later). */
export async function tryReleaseInflight(db: PassageDB, userId: string): Promise<boolean> {
  try {
    await releaseInflight(db, userId);
    return true;
  } catch {
    return false;
  }
}

/** The connection is back (or a person asked): this user's pending ops may go at once (S8). */
export async function forgetOpBackoffs(db: PassageDB, userId: string): Promise<void> {
  await db.outbox.where('[user_id+state]').equals([userId, 'pending']).modify({ attempts: 0, next_attempt_at: 0 });
}
