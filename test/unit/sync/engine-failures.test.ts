import { describe, expect, it, vi } from 'vitest';
import { makeHarness } from './harness';
import { createParticipant, updateParticipant } from '../../../src/data/commands/participants';
import { enrollParticipant } from '../../../src/data/commands/enrollments';
import { createProgram, deleteProgram } from '../../../src/data/commands/programs';
import { discardOp, editRejectedOp, retryOp } from '../../../src/data/commands/sync-ops';

describe('S8 failures', () => {
  it('a 500 is retried after a jittered backoff, not before', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 500 });
    await createParticipant(h.data, { first_name: 'A', last_name: 'B' });
    await h.engine.start();
    await h.settle();
    const [op] = await h.db.outbox.toArray();
    // attempt 1 with random 0.5: 500 + 250 ms.
    expect(op).toMatchObject({ attempts: 1, next_attempt_at: h.clock.now() + 750, last_error: { status: 500, message: 'HTTP 500' } });
    await h.advance(700);
    expect(h.transport.server.rows('Participant')).toHaveLength(0);
    await h.advance(100);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });

  it('a 401 mid-queue pauses everything and keeps the queue until resumed', async () => {
    const h = makeHarness({ tuning: { maxBulk: 1, concurrency: 1 } });
    await createParticipant(h.data, { first_name: 'A', last_name: '1' });
    await createParticipant(h.data, { first_name: 'B', last_name: '2' });
    await createParticipant(h.data, { first_name: 'C', last_name: '3' });
    h.transport.failNext({ method: 'create', skip: 1 }, { kind: 'status', status: 401, message: 'Unauthorized' });
    await h.engine.start();
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect(await h.db.outbox.count()).toBe(2);
    expect((await h.db.outbox.toArray()).every((o) => o.state === 'pending')).toBe(true);
    expect((await h.status()).paused).toBe('auth');
    const calls = h.transport.calls.length;
    await h.advance(10 * 60_000);
    expect(h.transport.calls.length).toBe(calls);
    h.engine.resume();
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(3);
    expect((await h.status()).paused).toBeNull();
  });

  it.each([403, 409, 422])('a %i marks the op rejected with the server message; dependents wait; others go', async (status) => {
    const h = makeHarness({ tuning: { maxBulk: 1 } });
    h.transport.failNext({ method: 'create', entity: 'Participant' }, { kind: 'status', status, message: `refused ${status}` });
    const bad = await createParticipant(h.data, { first_name: 'Bad', last_name: 'X' });
    await enrollParticipant(h.data, { participant_id: bad.id, cohort_id: 'c1' });
    await createProgram(h.data, { program_name: 'Welding' });
    await h.engine.start();
    await h.settle();
    expect(h.transport.server.rows('Program')).toHaveLength(1);
    expect(h.transport.server.rows('Enrollment')).toHaveLength(0);
    const ops = await h.db.outbox.orderBy('seq').toArray();
    expect(ops.map((o) => [o.entity, o.state])).toEqual([
      ['Participant', 'rejected'],
      ['Enrollment', 'pending'],
    ]);
    expect(ops[0].last_error).toMatchObject({ status, message: `refused ${status}` });
    expect((await h.status()).rejected).toHaveLength(1);
  });

  it('retry, edit and discard of rejected ops', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 422, message: 'bad' }, 2);
    const p = await createParticipant(h.data, { first_name: 'A', last_name: '' });
    await h.engine.start();
    await h.settle();
    const [op] = await h.db.outbox.toArray();
    await retryOp(h.data, op.seq!);
    await h.settle();
    expect((await h.db.outbox.get(op.seq!))!.state).toBe('rejected');
    await editRejectedOp(h.data, op.seq!, { last_name: 'Fixed' });
    expect(await h.db.participants.get(p.id)).toMatchObject({ last_name: 'Fixed' });
    await h.settle();
    expect(h.transport.server.rows('Participant')).toEqual([expect.objectContaining({ last_name: 'Fixed' })]);

    // Discard: a refused delete puts the row back; a refused create takes its dependents with it.
    const prog = h.transport.server.create('Program', { program_name: 'Keep' });
    await h.engine.runOnce();
    h.transport.failNext({ method: 'remove' }, { kind: 'status', status: 403, message: 'Admins only' });
    await deleteProgram(h.data, prog.id);
    await h.engine.runOnce();
    const [del] = await h.db.outbox.toArray();
    await discardOp(h.data, del.seq!);
    expect(await h.db.programs.get(prog.id)).toMatchObject({ program_name: 'Keep' });

    h.transport.failNext({ method: 'create', entity: 'Participant' }, { kind: 'status', status: 403, message: 'no' });
    const q = await createParticipant(h.data, { first_name: 'Q', last_name: 'Q' });
    const e = await enrollParticipant(h.data, { participant_id: q.id, cohort_id: 'c1' });
    await h.engine.runOnce();
    const [create] = await h.db.outbox.where('record_id').equals(q.id).toArray();
    await discardOp(h.data, create.seq!);
    expect(await h.db.outbox.count()).toBe(0);
    expect(await h.db.participants.get(q.id)).toBeUndefined();
    expect(await h.db.enrollments.get(e.id)).toBeUndefined();
  });

  it('discarding a rejected update puts the server values back in the mirror', async () => {
    const h = makeHarness();
    const row = h.transport.server.create('Participant', { first_name: 'A', last_name: 'B', phone: '1' });
    await h.engine.start();
    await h.settle();
    h.transport.failNext({ method: 'update' }, { kind: 'status', status: 403, message: 'no' });
    await updateParticipant(h.data, row.id, { phone: '2' });
    await h.engine.runOnce();
    const [op] = await h.db.outbox.toArray();
    expect(op.state).toBe('rejected');
    await discardOp(h.data, op.seq!);
    expect(await h.db.participants.get(row.id)).toMatchObject({ phone: '1' });
  });

  it('a 429 holds the whole queue for Retry-After', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 429, retryAfterSeconds: 120 });
    await createParticipant(h.data, { first_name: 'A', last_name: 'B' });
    await h.engine.start();
    await h.settle();
    const calls = h.transport.calls.length;
    await h.advance(119_000);
    expect(h.transport.calls.length).toBe(calls);
    await h.advance(2_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });

  it('offline: status goes offline, retries back off; the connection returning resets and syncs', async () => {
    const h = makeHarness();
    h.transport.offline = true;
    await createParticipant(h.data, { first_name: 'A', last_name: 'B' });
    await h.engine.start();
    await h.settle();
    expect((await h.status()).online).toBe(false);
    await h.advance(5 * 60_000);
    // The queue is tried with exponential backoff, not every second; what goes each second is the
    // one-row reachability probe (the browser never said it was offline: no 'online' will come).
    const tries = h.transport.calls.filter((c) => !(c.method === 'filter' && c.entity === 'User' && c.args[2] === 1)).length;
    expect(tries).toBeGreaterThan(2);
    expect(tries).toBeLessThan(15);
    h.transport.offline = false;
    h.engine.connectionChanged(true);
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect((await h.status()).online).toBe(true);
    expect(await h.db.outbox.count()).toBe(0);
  });

  it('nothing is dropped: after 30 failed attempts the op is still queued, then goes through', async () => {
    const h = makeHarness({ tuning: { periodicMs: 24 * 3600_000 } });
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 500 }, 30);
    await createParticipant(h.data, { first_name: 'A', last_name: 'B' });
    await h.engine.start();
    await h.settle();
    for (let i = 0; i < 100; i++) {
      const [queued] = await h.db.outbox.toArray();
      if (queued.attempts >= 30) break;
      await h.advance(queued.next_attempt_at - h.clock.now());
    }
    const [op] = await h.db.outbox.toArray();
    expect(op).toMatchObject({ attempts: 30, state: 'pending' });
    expect(h.transport.server.rows('Participant')).toHaveLength(0);
    // Capped: the 30th retry waits at most 15 minutes.
    expect(op.next_attempt_at - h.clock.now()).toBeLessThanOrEqual(15 * 60_000);
    await h.advance(15 * 60_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect(await h.db.outbox.count()).toBe(0);
  });
});

describe('S11 identity', () => {
  it('pushes only the signed-in user\'s ops; another user\'s stay queued', async () => {
    const h = makeHarness({ userId: 'user-2' });
    h.data.userId = 'user-1';
    await createParticipant(h.data, { first_name: 'Old', last_name: 'User' });
    h.data.userId = 'user-2';
    await createParticipant(h.data, { first_name: 'New', last_name: 'User' });
    await h.engine.start();
    await h.settle();
    expect(h.transport.server.rows('Participant').map((r) => r.first_name)).toEqual(['New']);
    expect(await h.db.outbox.toArray()).toEqual([expect.objectContaining({ user_id: 'user-1' })]);
    expect((await h.status()).otherUserPending).toBe(1);
  });
});

describe('S12 storage', () => {
  it('a quota error while applying a pull is a clear message, and no op is lost', async () => {
    const h = makeHarness();
    h.transport.server.create('Participant', { first_name: 'S', last_name: 'X' });
    await createParticipant(h.data, { first_name: 'A', last_name: 'B' });
    h.transport.failNext({ method: 'bulkCreate' }, { kind: 'status', status: 503 });
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 503 });
    const put = vi.spyOn(h.db.syncState, 'put').mockImplementation(() => {
      throw Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
    });
    await h.engine.start();
    await h.settle();
    expect((await h.status()).lastError).toMatch(/out of storage space/);
    expect(await h.db.outbox.count()).toBe(1);
    put.mockRestore();
    await h.advance(15 * 60_000);
    expect((await h.status()).lastError).toBeNull();
    expect(h.transport.server.rows('Participant')).toHaveLength(2);
  });
});
