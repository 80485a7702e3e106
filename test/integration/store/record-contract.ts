/** Records: create, get, update (merge), createMany/updateMany atomicity, delete, migrate. */
import { expect, it } from 'vitest';
import { type ContractContext, ISO_MS, expect400, freshApp, meta } from './contract-helpers';

export function registerRecordTests({ store }: ContractContext) {
  it('create assigns id, dates and creator, ignoring client-set platform fields', async () => {
    const app = freshApp();
    const created = await store().create(app, 'Participant', {
      full_name: 'Ana Diaz', id: 'mine', created_date: '2000-01-01T00:00:00.000Z', updated_date: 'x',
      created_by: 'evil@example.org', created_by_id: 'evil',
    }, meta);
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    expect(created.created_date).toMatch(ISO_MS);
    expect(created.updated_date).toBe(created.created_date);
    expect(created).toMatchObject({ full_name: 'Ana Diaz', created_by: 'coach@example.org', created_by_id: 'user-1' });
    expect(await store().get(app, 'Participant', created.id)).toEqual(created);
    expect(await store().get(app, 'Participant', 'mine')).toBeNull();
  });

  it('ids are distinct and keep apps and entities apart', async () => {
    const app = freshApp();
    const a = await store().create(app, 'Site', { name: 'North' }, { by: null, byId: null });
    const b = await store().create(app, 'Site', { name: 'South' }, { by: null, byId: null });
    expect(a.id).not.toBe(b.id);
    expect(a).toMatchObject({ created_by: null, created_by_id: null });
    expect(await store().get(app, 'Program', a.id)).toBeNull();
    expect(await store().get(freshApp(), 'Site', a.id)).toBeNull();
    expect(await store().count(app, 'Site')).toBe(2);
    expect(await store().list(freshApp(), 'Site', {})).toEqual([]);
  });

  it('a create whose client_ref the server already has returns the stored record, never a duplicate (S3)', async () => {
    const app = freshApp();
    const first = await store().create(app, 'Participant', { first_name: 'Ana', client_ref: 'ref-1' }, meta);
    // The same create re-sent after a lost answer, even with other values: one record, the first.
    const again = await store().create(app, 'Participant', { first_name: 'Ana B', client_ref: 'ref-1' }, meta);
    expect(again).toEqual(first);
    // Concurrent re-sends of one create and a bulk carrying it plus a new one.
    const racing = await Promise.all([1, 2, 3].map(() => store().create(app, 'Participant', { first_name: 'Bo', client_ref: 'ref-2' }, meta)));
    expect(new Set(racing.map((r) => r.id)).size).toBe(1);
    const bulk = await store().createMany(app, 'Participant', [{ first_name: 'Ana', client_ref: 'ref-1' }, { first_name: 'Cy', client_ref: 'ref-3' }], meta);
    expect(bulk[0]).toEqual(first);
    expect(bulk[1]).toMatchObject({ first_name: 'Cy', client_ref: 'ref-3' });
    expect(await store().count(app, 'Participant')).toBe(3);
    // The same client_ref in another entity or app is another record.
    expect((await store().create(app, 'Enrollment', { client_ref: 'ref-1' }, meta)).id).not.toBe(first.id);
    expect((await store().create(freshApp(), 'Participant', { client_ref: 'ref-1' }, meta)).id).not.toBe(first.id);
    // Records without client_ref are unaffected.
    await store().createMany(app, 'Participant', [{ first_name: 'X' }, { first_name: 'X' }], meta);
    expect(await store().count(app, 'Participant')).toBe(5);
  });

  it('an update that would give a record another record\'s client_ref is refused with 409', async () => {
    const app = freshApp();
    await store().create(app, 'Participant', { first_name: 'Ana', client_ref: 'ref-a' }, meta);
    const other = await store().create(app, 'Participant', { first_name: 'Bo', client_ref: 'ref-b' }, meta);
    await expect(store().update(app, 'Participant', other.id, { client_ref: 'ref-a' })).rejects.toMatchObject({ kind: 'conflict' });
    expect(await store().get(app, 'Participant', other.id)).toEqual(other);
  });

  it('rejects a record that is not an object', async () => {
    const app = freshApp();
    await expect400(store().create(app, 'Site', [] as unknown as Record<string, unknown>, meta));
    await expect400(store().create(app, 'Site', null as unknown as Record<string, unknown>, meta));
    expect(await store().count(app, 'Site')).toBe(0);
  });

  it('update merges shallowly, bumps updated_date and keeps the platform fields', async () => {
    const app = freshApp();
    const before = await store().create(app, 'Participant', { full_name: 'Ana', phone: '555', address: { city: 'A', zip: '1' } }, meta);
    const after = await store().update(app, 'Participant', before.id, {
      phone: null, address: { city: 'B' }, notes: 'new', id: 'other', created_by: 'evil', created_date: '1999-01-01T00:00:00.000Z',
    });
    expect(after).toEqual({
      ...before, phone: null, address: { city: 'B' }, notes: 'new', updated_date: after!.updated_date,
    });
    expect(after!.updated_date > before.updated_date).toBe(true);
    expect(await store().get(app, 'Participant', before.id)).toEqual(after);
    expect(await store().update(app, 'Participant', 'no-such-id', { a: 1 })).toBeNull();
  });

  it('createMany writes all records in one transaction, or none', async () => {
    const app = freshApp();
    const made = await store().createMany(app, 'Enrollment', [{ n: 1 }, { n: 2 }, { n: 3 }], meta);
    expect(made.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(new Set(made.map((r) => r.id)).size).toBe(3);
    // The third record holds a NUL character, which PostgreSQL's jsonb refuses: the database fails
    // mid-transaction and the first two must not stay behind.
    await expect400(store().createMany(app, 'Enrollment', [{ n: 4 }, { n: 5 }, { n: 'bad\u0000' }], meta));
    await expect400(store().createMany(app, 'Enrollment', [{ n: 6 }, 7 as unknown as Record<string, unknown>], meta));
    expect((await store().list(app, 'Enrollment', { sort: 'n' })).map((r) => r.n)).toEqual([1, 2, 3]);
    expect(await store().createMany(app, 'Enrollment', [], meta)).toEqual([]);
  });

  it('updateMany changes all records or, when an id is missing, nothing (not_found: a 404)', async () => {
    const app = freshApp();
    const [a, b] = await store().createMany(app, 'Enrollment', [{ status: 'active' }, { status: 'active' }], meta);
    const updated = await store().updateMany(app, 'Enrollment', [{ id: a.id, status: 'completed' }, { id: b.id, status: 'withdrawn' }]);
    expect(updated.map((r) => [r.id, r.status])).toEqual([[a.id, 'completed'], [b.id, 'withdrawn']]);
    expect(updated[1].updated_date > updated[0].updated_date).toBe(true);

    const err = await store().updateMany(app, 'Enrollment', [{ id: a.id, status: 'x' }, { id: 'missing', status: 'x' }]).catch((e) => e);
    expect(err).toMatchObject({ kind: 'not_found' });
    expect((await store().get(app, 'Enrollment', a.id))!.status).toBe('completed');
    await expect400(store().updateMany(app, 'Enrollment', [{ status: 'x' } as unknown as { id: string }]));
  });

  it('updateWithPrevious returns each record as it was just before the write, concurrent writers in turn (issue #9.10)', async () => {
    const app = freshApp();
    const r = await store().create(app, 'Participant', { phone: '1' }, meta);
    // Two writers at once: the second one's previous is the first one's write, never the same base.
    const [x, y] = await Promise.all([
      store().updateWithPrevious(app, 'Participant', r.id, { phone: '2' }),
      store().updateWithPrevious(app, 'Participant', r.id, { phone: '3' }),
    ]);
    const answers = [x!, y!].sort((p, q) => (p.record.updated_date < q.record.updated_date ? -1 : 1));
    expect(answers[0].previous).toMatchObject({ phone: '1', updated_date: r.updated_date });
    expect(answers[1].previous).toMatchObject({ phone: answers[0].record.phone, updated_date: answers[0].record.updated_date });
    expect(await store().updateWithPrevious(app, 'Participant', 'missing', { phone: '4' })).toBeNull();

    const many = await store().updateManyWithPrevious(app, 'Participant', [{ id: r.id, phone: '5' }]);
    expect(many).toEqual([{ record: expect.objectContaining({ phone: '5' }), previous: expect.objectContaining({ phone: answers[1].record.phone }) }]);
  });

  it('delete removes the record once', async () => {
    const app = freshApp();
    const r = await store().create(app, 'Cohort', { name: 'Spring' }, meta);
    expect(await store().delete(app, 'Cohort', r.id)).toBe(true);
    expect(await store().delete(app, 'Cohort', r.id)).toBe(false);
    expect(await store().get(app, 'Cohort', r.id)).toBeNull();
  });

  it('migrate can run again on a live database', async () => {
    const app = freshApp();
    await store().create(app, 'Site', { name: 'Kept' }, meta);
    await store().migrate();
    expect((await store().list(app, 'Site', {})).map((r) => r.name)).toEqual(['Kept']);
  });
}
