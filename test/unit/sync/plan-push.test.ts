import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../../../src/data/db';
import { planPush } from '../../../src/data/sync/plan-push';

let seq = 0;
function op(p: Partial<OutboxOp> & Pick<OutboxOp, 'entity' | 'record_id' | 'kind'>): OutboxOp {
  return { seq: ++seq, data: {}, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'u1', created_at: 0, ...p };
}

describe('planPush (S7 order, S11 identity)', () => {
  it('groups independent creates of one entity into one bulk step and updates into one fetch step', () => {
    const ops = [
      op({ entity: 'Participant', record_id: 'local-a', kind: 'create', client_ref: 'a' }),
      op({ entity: 'Participant', record_id: 'local-b', kind: 'create', client_ref: 'b' }),
      op({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '1' } }),
      op({ entity: 'Participant', record_id: 'p2', kind: 'update', data: { phone: '2' } }),
      op({ entity: 'Program', record_id: 'g1', kind: 'delete' }),
    ];
    const plan = planPush({ ops, userId: 'u1', now: 0 });
    expect(plan.steps.map((s) => [s.kind, s.entity, s.seqs.length])).toEqual([
      ['create', 'Participant', 2],
      ['update', 'Participant', 2],
      ['delete', 'Program', 1],
    ]);
  });

  it('runs one record in order: a later op waits for the earlier one', () => {
    const a = op({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '1' } });
    const b = op({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '2' } });
    const plan = planPush({ ops: [b, a], userId: 'u1', now: 0 });
    expect(plan.steps).toEqual([{ kind: 'update', entity: 'Participant', seqs: [a.seq] }]);
    expect(plan.waiting).toEqual([{ seq: b.seq, reason: 'order' }]);
  });

  it('an enrollment of a participant not yet created waits for it', () => {
    const p = op({ entity: 'Participant', record_id: 'local-p', kind: 'create', client_ref: 'p' });
    const e = op({ entity: 'Enrollment', record_id: 'local-e', kind: 'create', client_ref: 'e', data: { participant_id: 'local-p', cohort_id: 'c1' } });
    const plan = planPush({ ops: [p, e], userId: 'u1', now: 0 });
    expect(plan.steps).toEqual([{ kind: 'create', entity: 'Participant', seqs: [p.seq] }]);
    expect(plan.waiting).toEqual([{ seq: e.seq, reason: 'dependency' }]);
  });

  it('a rejected head blocks its record only; other records still go', () => {
    const r = op({ entity: 'Participant', record_id: 'p1', kind: 'update', state: 'rejected' });
    const after = op({ entity: 'Participant', record_id: 'p1', kind: 'update' });
    const other = op({ entity: 'Participant', record_id: 'p2', kind: 'update' });
    const plan = planPush({ ops: [r, after, other], userId: 'u1', now: 0 });
    expect(plan.steps).toEqual([{ kind: 'update', entity: 'Participant', seqs: [other.seq] }]);
    expect(plan.waiting).toEqual(expect.arrayContaining([{ seq: r.seq, reason: 'blocked' }, { seq: after.seq, reason: 'order' }]));
  });

  it('backed-off ops wait and report when they become ready', () => {
    const a = op({ entity: 'Site', record_id: 's1', kind: 'update', next_attempt_at: 5000 });
    const b = op({ entity: 'Site', record_id: 's2', kind: 'update', next_attempt_at: 3000 });
    const plan = planPush({ ops: [a, b], userId: 'u1', now: 1000 });
    expect(plan.steps).toEqual([]);
    expect(plan.nextAttemptAt).toBe(3000);
  });

  it('creates with an unknown outcome are looked up, failed-bulk creates go alone', () => {
    const u = op({ entity: 'Participant', record_id: 'local-u', kind: 'create', outcome_unknown: true });
    const n1 = op({ entity: 'Participant', record_id: 'local-1', kind: 'create', no_bulk: true });
    const n2 = op({ entity: 'Participant', record_id: 'local-2', kind: 'create', no_bulk: true });
    const plan = planPush({ ops: [u, n1, n2], userId: 'u1', now: 0 });
    expect(plan.steps).toEqual([
      { kind: 'lookup', entity: 'Participant', seqs: [u.seq] },
      { kind: 'create', entity: 'Participant', seqs: [n1.seq] },
      { kind: 'create', entity: 'Participant', seqs: [n2.seq] },
    ]);
  });

  it('never plans another user\'s ops (S11)', () => {
    const mine = op({ entity: 'Site', record_id: 's1', kind: 'update' });
    const theirs = op({ entity: 'Site', record_id: 's2', kind: 'update', user_id: 'u2' });
    const plan = planPush({ ops: [mine, theirs], userId: 'u1', now: 0 });
    expect(plan.steps.flatMap((s) => s.seqs)).toEqual([mine.seq]);
    expect(plan.foreign).toBe(1);
  });

  it('splits big batches at maxBatch', () => {
    const ops = Array.from({ length: 250 }, (_, i) => op({ entity: 'Participant', record_id: `local-${i}`, kind: 'create' }));
    const plan = planPush({ ops, userId: 'u1', now: 0, maxBatch: 100 });
    expect(plan.steps.map((s) => s.seqs.length)).toEqual([100, 100, 50]);
  });
});
