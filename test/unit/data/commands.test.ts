import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeDevice } from '../../support/device';
import { createParticipant, updateParticipant } from '../../../src/data/commands/participants';
import { enrollParticipant, unenrollParticipant } from '../../../src/data/commands/enrollments';
import { createCohort } from '../../../src/data/commands/cohorts';
import { createProgram, deleteProgram, updateProgram } from '../../../src/data/commands/programs';
import { createSite } from '../../../src/data/commands/sites';
import { StorageFullError } from '../../../src/data/errors';

afterEach(() => vi.restoreAllMocks());

describe('S1 one transaction (commands)', () => {
  it('a create puts the row with a temporary id and one create op with a client_ref', async () => {
    const { data, db } = makeDevice();
    const p = await createParticipant(data, { first_name: 'Ana', last_name: 'Ruiz' });
    expect(p.id).toMatch(/^local-/);
    expect(p.custody_status).toBe('in-custody');
    expect(await db.participants.get(p.id)).toMatchObject({ first_name: 'Ana', client_ref: p.client_ref });
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'create', record_id: p.id, user_id: 'user-1', state: 'pending' });
    expect(ops[0].client_ref).toBe(p.client_ref);
    expect(ops[0].data).toMatchObject({ first_name: 'Ana', client_ref: p.client_ref });
    expect(ops[0].data).not.toHaveProperty('id');
  });

  it('create then update before a push is one create with the merged body', async () => {
    const { data, db } = makeDevice();
    const p = await createParticipant(data, { first_name: 'Ana', last_name: 'Ruiz' });
    await updateParticipant(data, p.id, { last_name: 'Ruiz-Lopez', phone: '555' });
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0].kind).toBe('create');
    expect(ops[0].data).toMatchObject({ first_name: 'Ana', last_name: 'Ruiz-Lopez', phone: '555' });
  });

  it('update then update is one update that keeps the first base', async () => {
    const { data, db } = makeDevice();
    await db.participants.put({ id: 'p1', first_name: 'A', last_name: 'B', updated_date: '2026-01-01T00:00:00.000Z' });
    await updateParticipant(data, 'p1', { first_name: 'A2' });
    await updateParticipant(data, 'p1', { first_name: 'A3', phone: '1' });
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      kind: 'update',
      data: { first_name: 'A3', phone: '1' },
      base_values: { first_name: 'A', phone: null },
      base_updated_date: '2026-01-01T00:00:00.000Z',
    });
    expect(await db.participants.get('p1')).toMatchObject({ first_name: 'A3', phone: '1' });
  });

  it('an update that changes nothing queues nothing', async () => {
    const { data, db } = makeDevice();
    await db.participants.put({ id: 'p1', first_name: 'A', last_name: 'B' });
    await updateParticipant(data, 'p1', { first_name: 'A', last_name: 'B' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('an update waits behind an op already in flight instead of merging into it', async () => {
    const { data, db } = makeDevice();
    await db.participants.put({ id: 'p1', first_name: 'A', last_name: 'B' });
    await updateParticipant(data, 'p1', { first_name: 'A2' });
    await db.outbox.toCollection().modify({ state: 'inflight' });
    await updateParticipant(data, 'p1', { first_name: 'A3' });
    const ops = await db.outbox.orderBy('seq').toArray();
    expect(ops.map((o) => [o.state, o.data.first_name, o.base_values?.first_name])).toEqual([
      ['inflight', 'A2', 'A'],
      ['pending', 'A3', 'A2'],
    ]);
  });

  it('create then delete leaves nothing to send', async () => {
    const { data, db } = makeDevice();
    const prog = await createProgram(data, { program_name: 'Welding' });
    expect(prog.active).toBe(true);
    await deleteProgram(data, prog.id);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.programs.count()).toBe(0);
  });

  it('update then delete is one delete whose snapshot holds the server values', async () => {
    const { data, db } = makeDevice();
    await db.programs.put({ id: 'g1', program_name: 'Old', active: true });
    await updateProgram(data, 'g1', { program_name: 'New' });
    await deleteProgram(data, 'g1');
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'delete', snapshot: { id: 'g1', program_name: 'Old' } });
    expect(await db.programs.get('g1')).toBeUndefined();
  });

  it('a quota failure while queuing rolls the mirror change back and says so', async () => {
    const { data, db } = makeDevice();
    vi.spyOn(db.outbox, 'add').mockImplementation(() => {
      throw Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
    });
    await expect(createParticipant(data, { first_name: 'A', last_name: 'B' })).rejects.toBeInstanceOf(StorageFullError);
    expect(await db.participants.count()).toBe(0);
  });

  it('nudges the engine only after the write committed', async () => {
    const { data, db } = makeDevice();
    const seen: number[] = [];
    data.sync = { syncNow: () => {}, localWrite: () => void db.outbox.count().then((c) => seen.push(c)) };
    await createParticipant(data, { first_name: 'A', last_name: 'B' });
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([1]);
  });
});

describe('command defaults (spec 4, 9)', () => {
  it('enrol is active with today as intake date; unenrol withdraws without deleting', async () => {
    const { data, db } = makeDevice();
    const e = await enrollParticipant(data, { participant_id: 'p1', cohort_id: 'c1' });
    expect(e).toMatchObject({ enrollment_status: 'active', intake_date: '2026-01-15' });
    await unenrollParticipant(data, e.id);
    expect(await db.enrollments.get(e.id)).toMatchObject({ enrollment_status: 'withdrawn' });
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0].data).toMatchObject({ enrollment_status: 'withdrawn', participant_id: 'p1' });
  });

  it('enrolling with a temporary id that has since been aliased stores the server id', async () => {
    const { data, db } = makeDevice();
    await db.aliases.put({ temp_id: 'local-x', entity: 'Participant', server_id: 'srv-9' });
    const e = await enrollParticipant(data, { participant_id: 'local-x', cohort_id: 'c1' });
    expect(e.participant_id).toBe('srv-9');
  });

  it('new cohorts are planned with capacity 20; new sites are active prisons', async () => {
    const { data } = makeDevice();
    const c = await createCohort(data, { program_id: 'g', site_id: 's', cohort_code: 'W-S-2026Q1', start_date: '2026-01-02' });
    expect(c).toMatchObject({ status: 'planned', capacity: 20 });
    const s = await createSite(data, { site_name: 'North' });
    expect(s).toMatchObject({ site_type: 'prison', active: true });
  });
});
