/**
 * Issue #23.7: the Sync page's answer to a participant create the server refused as a possible
 * duplicate (409 POSSIBLE_DUPLICATE, which names the held records' ids). "This is a different
 * person" adds those ids to the queued create's `different_person_from` (and the mirror row's:
 * the decision is recorded on the participant) and sends it again; the server then saves it.
 * "Open" is a link: the held participant opens like any other, fetched when beyond the tablet.
 */
import type { DataContext } from '../context';
import type { OutboxOp } from '../db';
import { DIFFERENT_PERSON_FIELD } from '../../../shared/participant-keys';
import { editRejectedOp } from './sync-ops';

export const POSSIBLE_DUPLICATE = 'POSSIBLE_DUPLICATE';

/** The held records a refused create may be a duplicate of; empty for any other op or refusal. */
export function possibleDuplicateIds(op: Pick<OutboxOp, 'entity' | 'kind' | 'state' | 'last_error'>): string[] {
  if (op.entity !== 'Participant' || op.kind !== 'create' || op.state !== 'rejected' || op.last_error?.code !== POSSIBLE_DUPLICATE) return [];
  return op.last_error.duplicate_ids ?? [];
}

/** Marks the records the refusal named as other people on the queued create, and sends it again. */
export async function markDifferentPerson(ctx: DataContext, seq: number): Promise<void> {
  const op = await ctx.db.outbox.get(seq);
  if (!op) return;
  const ids = possibleDuplicateIds(op);
  const held = op.data[DIFFERENT_PERSON_FIELD];
  const before = Array.isArray(held) ? held.filter((id): id is string => typeof id === 'string') : [];
  await editRejectedOp(ctx, seq, { [DIFFERENT_PERSON_FIELD]: [...new Set([...before, ...ids])] });
}
