import { describe, expect, it } from 'vitest';
import { fieldMerge } from '../../../src/data/sync/field-merge';
import { rebaseRow } from '../../../src/data/sync/rebase';
import { mergeChange } from '../../../src/data/sync/op-merge';
import { sameValue } from '../../../src/data/sync/same-value';
import type { OutboxOp } from '../../../src/data/db';

describe('fieldMerge (S4)', () => {
  const op = { data: { phone: 'L', city: 'Lc' }, base_values: { phone: 'B', city: 'Bc' }, base_updated_date: 'T1' };

  it('server unchanged since the base: send every changed field, no conflict', () => {
    const r = fieldMerge(op, { id: 'x', phone: 'B', city: 'Bc', updated_date: 'T1' });
    expect(r.send).toEqual({ phone: 'L', city: 'Lc' });
    expect(r.conflicts).toEqual({});
  });

  it('server changed other fields only: send ours, no conflict', () => {
    const r = fieldMerge(op, { id: 'x', phone: 'B', city: 'Bc', email: 'new', updated_date: 'T2' });
    expect(r.send).toEqual({ phone: 'L', city: 'Lc' });
    expect(r.conflicts).toEqual({});
  });

  it('both changed one field differently: local wins and a conflict names both values', () => {
    const r = fieldMerge(op, { id: 'x', phone: 'S', city: 'Bc', updated_date: 'T2' });
    expect(r.send).toEqual({ phone: 'L', city: 'Lc' });
    expect(r.conflicts).toEqual({ phone: { local: 'L', server: 'S' } });
    expect(r.newBase).toEqual({ phone: 'S', city: 'Bc' });
  });

  it('both made the same change: nothing to send for it, no conflict', () => {
    const r = fieldMerge(op, { id: 'x', phone: 'L', city: 'Bc', updated_date: 'T2' });
    expect(r.send).toEqual({ city: 'Lc' });
    expect(r.conflicts).toEqual({});
  });

  it('an unknown base date compares field by field', () => {
    const r = fieldMerge({ data: { a: 1 }, base_values: { a: 0 }, base_updated_date: null }, { id: 'x', a: 0, updated_date: 'T' });
    expect(r).toMatchObject({ send: { a: 1 }, conflicts: {} });
  });
});

describe('rebaseRow (S5)', () => {
  it('puts pending fields on top of the new server row, in op order', () => {
    const row = rebaseRow({ id: 'p', a: 1, b: 1, updated_date: 'T2' }, [
      { seq: 2, kind: 'update', data: { a: 3 } },
      { seq: 1, kind: 'update', data: { a: 2, c: 2 } },
    ]);
    expect(row).toEqual({ id: 'p', a: 3, b: 1, c: 2, updated_date: 'T2' });
  });

  it('a queued delete keeps the row out of the mirror', () => {
    expect(rebaseRow({ id: 'p' }, [{ seq: 1, kind: 'delete', data: {} }])).toBeNull();
  });
});

describe('mergeChange (S1 merged ops)', () => {
  const base: OutboxOp = { seq: 1, entity: 'Site', record_id: 's', kind: 'create', data: { a: 1 }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'u', created_at: 0 };

  it('create + update = create with the merged body', () => {
    expect(mergeChange(base, { kind: 'update', data: { b: 2 }, base_values: { b: null }, base_updated_date: null })).toEqual({
      action: 'replace',
      op: { ...base, data: { a: 1, b: 2 } },
    });
  });

  it('create + delete = nothing', () => {
    expect(mergeChange(base, { kind: 'delete', snapshot: null })).toEqual({ action: 'drop' });
  });

  it('update + update keeps the base date only when both edits saw the same server version', () => {
    const upd: OutboxOp = { ...base, kind: 'update', data: { a: 2 }, base_values: { a: 1 }, base_updated_date: 'T2' };
    const same = mergeChange(upd, { kind: 'update', data: { b: 3 }, base_values: { b: null }, base_updated_date: 'T2' });
    expect(same).toMatchObject({ action: 'replace', op: { data: { a: 2, b: 3 }, base_values: { a: 1, b: null }, base_updated_date: 'T2' } });
    // The op's base date came from a fetch the mirror never saw (an attempt whose answer was lost):
    // b's base is older, so the merge must compare field by field.
    const older = mergeChange(upd, { kind: 'update', data: { b: 3 }, base_values: { b: null }, base_updated_date: 'T1' });
    expect(older).toMatchObject({ action: 'replace', op: { base_updated_date: null } });
  });

  it('never merges into a create whose answer was lost (the server may hold its body already)', () => {
    const lost = { ...base, outcome_unknown: true };
    expect(mergeChange(lost, { kind: 'update', data: { b: 2 }, base_values: { b: null }, base_updated_date: null })).toEqual({ action: 'append' });
    expect(mergeChange(lost, { kind: 'delete', snapshot: null })).toEqual({ action: 'append' });
  });

  it('never merges into an op in flight or rejected', () => {
    for (const state of ['inflight', 'rejected'] as const) {
      expect(mergeChange({ ...base, state }, { kind: 'delete', snapshot: null })).toEqual({ action: 'append' });
    }
  });
});

describe('sameValue', () => {
  it('treats null and undefined alike and compares lists by content', () => {
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameValue(['a'], ['a', 'b'])).toBe(false);
    expect(sameValue(0, null)).toBe(false);
    expect(sameValue('', null)).toBe(false);
  });
});
