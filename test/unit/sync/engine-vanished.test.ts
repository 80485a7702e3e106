import { describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness';
import { updateParticipant } from '../../../src/data/commands/participants';
import { enrollParticipant } from '../../../src/data/commands/enrollments';
import { discardOp, resolveConflict } from '../../../src/data/commands/sync-ops';

/**
 * Issue #9.7: a record deleted on the server while a coach had an edit queued. It must leave the
 * tablet at once (no longer listed, openable or enrollable), without losing the coach's edit, and
 * a reconcile of that entity runs in the same cycle.
 */

async function world(h: Harness) {
  const gone = h.transport.server.create('Participant', { first_name: 'Gone', last_name: 'Server', phone: '1' });
  const alsoGone = h.transport.server.create('Participant', { first_name: 'Also', last_name: 'Deleted' });
  const stays = h.transport.server.create('Participant', { first_name: 'Stays', last_name: 'Here' });
  const cohort = h.transport.server.create('Cohort', { cohort_code: 'C-1', name: 'Cohort' });
  await h.engine.start();
  await h.settle();
  expect(await h.db.participants.count()).toBe(3);
  return { gone, alsoGone, stays, cohort };
}

describe('issue #9.7: deletions reach the tablet promptly', () => {
  it('a 404 on a queued edit removes the record at once, keeps the edit as a conflict, and reconciles in the same cycle', async () => {
    const h = makeHarness();
    const { gone, alsoGone, stays, cohort } = await world(h);
    // Enrolled offline; the enrollment's create is still waiting out a 500 when the 404 comes.
    h.transport.failNext({ method: 'create', entity: 'Enrollment' }, { kind: 'status', status: 500 });
    await enrollParticipant(h.data, { participant_id: gone.id, cohort_id: cohort.id, intake_date: '2026-01-10' });
    await h.engine.runOnce();
    await updateParticipant(h.data, gone.id, { phone: '2' });
    // An admin deletes two participants (the reconcile is not due for 10 minutes).
    h.transport.server.remove('Participant', gone.id);
    h.transport.server.remove('Participant', alsoGone.id);
    await h.advance(1_000);

    expect((await h.db.participants.toArray()).map((p) => p.id)).toEqual([stays.id]);
    const ops = await h.db.outbox.toArray();
    expect(ops.find((o) => o.entity === 'Participant')).toMatchObject({ state: 'rejected', last_error: { status: 404 } });
    expect(ops.find((o) => o.entity === 'Enrollment')).toMatchObject({
      state: 'rejected',
      last_error: { status: 404, message: 'The participant it belongs to was deleted on the server.' },
    });
    expect(h.transport.server.rows('Enrollment')).toHaveLength(0);
    const conflicts = await h.db.conflicts.toArray();
    expect(conflicts).toEqual([expect.objectContaining({ kind: 'vanished', status: 'open', record_id: gone.id, local_value: expect.objectContaining({ phone: '2' }) })]);
  });

  it('Discard after the 404: the record, its ops and its conflict are gone; nothing of it is left to open', async () => {
    const h = makeHarness();
    const { gone } = await world(h);
    await updateParticipant(h.data, gone.id, { phone: '2' });
    h.transport.server.remove('Participant', gone.id);
    await h.advance(1_000);
    const [op] = await h.db.outbox.toArray();
    await discardOp(h.data, op.seq!);
    expect(await h.db.participants.get(gone.id)).toBeUndefined();
    expect(await h.db.outbox.count()).toBe(0);
    expect(await h.db.conflicts.where('status').equals('open').count()).toBe(0);
  });

  it('a record found deleted by the reconcile (edit rejected, kept for review): Discard removes it at once', async () => {
    const h = makeHarness();
    const { gone } = await world(h);
    h.transport.failNext({ method: 'update' }, { kind: 'status', status: 403, message: 'Not allowed' });
    await updateParticipant(h.data, gone.id, { phone: '2' });
    await h.advance(1_000);
    h.transport.server.remove('Participant', gone.id);
    await h.advance(10 * 60_000);
    const [op] = await h.db.outbox.toArray();
    expect(op).toMatchObject({ state: 'rejected', last_error: { status: 404 } });
    // Still on the tablet while the coach decides.
    expect(await h.db.participants.get(gone.id)).toBeDefined();

    await discardOp(h.data, op.seq!);
    expect(await h.db.participants.get(gone.id)).toBeUndefined();
    expect(await h.db.participants.count()).toBe(2);
    expect(await h.db.conflicts.where('status').equals('open').count()).toBe(0);
  });

  it('"Keep mine" after the 404 creates the record again from this device\'s copy', async () => {
    const h = makeHarness();
    const { gone } = await world(h);
    await updateParticipant(h.data, gone.id, { phone: '2' });
    h.transport.server.remove('Participant', gone.id);
    await h.advance(1_000);
    const [conflict] = await h.db.conflicts.toArray();
    await resolveConflict(h.data, conflict.id!, 'local');
    await h.settle();
    const back = h.transport.server.rows('Participant').filter((p) => p.first_name === 'Gone');
    expect(back).toEqual([expect.objectContaining({ last_name: 'Server', phone: '2' })]);
    expect(await h.db.participants.get(back[0].id)).toMatchObject({ phone: '2' });
    expect(await h.db.outbox.count()).toBe(0);
  });
});
