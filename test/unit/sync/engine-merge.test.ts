import { describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness';
import { updateParticipant } from '../../../src/data/commands/participants';
import { resolveConflict } from '../../../src/data/commands/sync-ops';

/** A participant on the server and in the mirror, as after a first sync. */
async function synced(h: Harness, fields: Record<string, unknown> = {}) {
  const row = h.transport.server.create('Participant', { first_name: 'Ana', last_name: 'Ruiz', phone: '1', address: 'A', ...fields });
  await h.engine.start();
  await h.settle();
  return row;
}

/** A synced participant whose phone this tablet changed to '2': the PUT is applied, its answer lost. */
async function phoneSentAnswerLost() {
  const h = makeHarness();
  const row = await synced(h);
  await updateParticipant(h.data, row.id, { phone: '2' });
  h.transport.failNext({ method: 'update' }, { kind: 'drop-response' });
  await h.engine.runOnce();
  return { h, row };
}

describe('S4 field-level updates', () => {
  it('sends only the changed fields', async () => {
    const h = makeHarness();
    const row = await synced(h);
    await updateParticipant(h.data, row.id, { first_name: 'Ana', phone: '2' });
    await h.engine.runOnce();
    expect(h.transport.callsOf('update')).toEqual([expect.objectContaining({ args: [row.id, { phone: '2' }] })]);
  });

  it('fields only one side changed keep that side, no conflict', async () => {
    const h = makeHarness();
    const row = await synced(h);
    h.transport.server.update('Participant', row.id, { address: 'B' });
    await updateParticipant(h.data, row.id, { phone: '2' });
    await h.engine.runOnce();
    expect(h.transport.server.get('Participant', row.id)).toMatchObject({ phone: '2', address: 'B' });
    expect(await h.db.participants.get(row.id)).toMatchObject({ phone: '2', address: 'B' });
    expect(await h.db.conflicts.count()).toBe(0);
  });

  it('a field added to an op after a failed attempt is merged on its own base: another device’s change of it is a conflict', async () => {
    const h = makeHarness();
    const row = await synced(h);
    // Another device sets the address; this tablet has not pulled it (its pulls fail meanwhile).
    h.transport.server.update('Participant', row.id, { address: 'Other device' });
    h.transport.failNext({ method: 'filter' }, { kind: 'status', status: 503 }, 50);
    await updateParticipant(h.data, row.id, { phone: '2' });
    // The attempt fetches the server's row (the new address date) and times out before the PUT arrives.
    h.transport.failNext({ method: 'update' }, { kind: 'timeout' });
    await h.engine.runOnce();
    expect(h.transport.server.get('Participant', row.id)).toMatchObject({ phone: '1', address: 'Other device' });
    // Still showing the old address, the coach changes it too: same op, the address's base is 'A'.
    await updateParticipant(h.data, row.id, { address: 'This tablet' });
    await h.advance(60_000);
    expect(h.transport.server.get('Participant', row.id)).toMatchObject({ phone: '2', address: 'This tablet' });
    expect(await h.db.conflicts.toArray()).toEqual([expect.objectContaining({ field: 'address', local_value: 'This tablet', server_value: 'Other device' })]);
  });

  it('a field both changed: local wins and a conflict records both values and when', async () => {
    const h = makeHarness();
    const row = await synced(h);
    const moved = h.transport.server.update('Participant', row.id, { phone: 'server' })!;
    await updateParticipant(h.data, row.id, { phone: 'local' });
    await h.engine.runOnce();
    expect(h.transport.server.get('Participant', row.id)!.phone).toBe('local');
    expect(await h.db.conflicts.toArray()).toEqual([
      expect.objectContaining({
        entity: 'Participant',
        record_id: row.id,
        field: 'phone',
        local_value: 'local',
        server_value: 'server',
        server_updated_date: moved.updated_date,
        detected_at: h.clock.now(),
        status: 'open',
        kind: 'field',
      }),
    ]);
  });

  it('the conflict survives a PUT that was applied but whose answer was lost', async () => {
    const h = makeHarness();
    const row = await synced(h);
    h.transport.server.update('Participant', row.id, { phone: 'server' });
    await updateParticipant(h.data, row.id, { phone: 'local' });
    h.transport.failNext({ method: 'update' }, { kind: 'drop-response' });
    await h.engine.runOnce();
    expect(await h.db.conflicts.count()).toBe(0);
    await h.advance(60_000);
    expect(await h.db.outbox.count()).toBe(0);
    expect(await h.db.conflicts.toArray()).toEqual([expect.objectContaining({ field: 'phone', local_value: 'local', server_value: 'server' })]);
  });

  it('its own write whose answer was lost is no conflict when the field is edited again before the retry', async () => {
    const { h, row } = await phoneSentAnswerLost();
    expect(h.transport.server.get('Participant', row.id)!.phone).toBe('2');
    // The coach corrects the number before the retry: the queued op now carries '3'.
    await updateParticipant(h.data, row.id, { phone: '3' });
    await h.advance(60_000);
    expect(await h.db.outbox.count()).toBe(0);
    expect(h.transport.server.get('Participant', row.id)!.phone).toBe('3');
    // The server's '2' was this tablet's own value, not another device's edit.
    expect(await h.db.conflicts.toArray()).toEqual([]);
  });

  it('another device writing after a lost answer is still a conflict', async () => {
    const { h, row } = await phoneSentAnswerLost();
    h.transport.server.update('Participant', row.id, { phone: 'other device' });
    await updateParticipant(h.data, row.id, { phone: '3' });
    await h.advance(60_000);
    expect(h.transport.server.get('Participant', row.id)!.phone).toBe('3');
    expect(await h.db.conflicts.toArray()).toEqual([expect.objectContaining({ field: 'phone', local_value: '3', server_value: 'other device' })]);
  });

  it('taking the server value queues it back; keeping local just closes the conflict', async () => {
    const h = makeHarness();
    const row = await synced(h);
    h.transport.server.update('Participant', row.id, { phone: 'server', address: 'S' });
    await updateParticipant(h.data, row.id, { phone: 'local', address: 'L' });
    await h.engine.runOnce();
    const [phone, address] = (await h.db.conflicts.toArray()).sort((a, b) => a.field.localeCompare(b.field)).reverse();
    await resolveConflict(h.data, phone.id!, 'server');
    await resolveConflict(h.data, address.id!, 'local');
    await h.engine.runOnce();
    expect(h.transport.server.get('Participant', row.id)).toMatchObject({ phone: 'server', address: 'L' });
    expect((await h.db.conflicts.toArray()).map((c) => [c.field, c.status]).sort()).toEqual([
      ['address', 'kept_local'],
      ['phone', 'took_server'],
    ]);
  });
});

describe('S5 incremental pull', () => {
  it('pages by updated_date from the cursor minus the overlap and applies every row once', async () => {
    const h = makeHarness({ tuning: { pageSize: 3 } });
    for (let i = 0; i < 7; i++) h.transport.server.create('Participant', { first_name: `P${i}`, last_name: 'X' });
    await h.engine.start();
    await h.settle();
    expect(await h.db.participants.count()).toBe(7);
    const state = await h.db.syncState.get('Participant');
    const newest = h.transport.server.rows('Participant').map((r) => r.updated_date as string).sort().at(-1);
    expect(state!.cursor).toBe(newest);
    const pulls = h.transport.callsOf('filter', 'Participant').filter((c) => c.args[1] === 'updated_date');
    // 7 rows in pages of 3: 3 + 3 + 1.
    expect(pulls).toHaveLength(3);

    h.transport.calls.length = 0;
    h.transport.server.create('Participant', { first_name: 'P7', last_name: 'X' });
    await h.engine.runOnce();
    const [next] = h.transport.callsOf('filter', 'Participant').filter((c) => c.args[1] === 'updated_date');
    const from = (next.args[0] as { updated_date: { $gte: string } }).updated_date.$gte;
    expect(Date.parse(newest!) - Date.parse(from)).toBe(2000);
    expect(await h.db.participants.count()).toBe(8);
  });

  it('rows with pending ops are rebased: new server state, pending fields on top', async () => {
    const h = makeHarness();
    const row = await synced(h);
    h.transport.failNext({ method: 'fetchMany' }, { kind: 'status', status: 503 });
    await updateParticipant(h.data, row.id, { phone: 'mine' });
    h.transport.server.update('Participant', row.id, { address: 'theirs' });
    await h.engine.runOnce();
    expect(await h.db.outbox.count()).toBe(1);
    expect(await h.db.participants.get(row.id)).toMatchObject({ phone: 'mine', address: 'theirs' });
  });
});

describe('S6 deletions', () => {
  it('the reconcile removes rows the server no longer has; a vanished row with pending edits becomes a conflict', async () => {
    const h = makeHarness({ tuning: { reconcileMs: 60_000 } });
    const a = await synced(h);
    const b = h.transport.server.create('Participant', { first_name: 'B', last_name: 'X' });
    await h.engine.runOnce();
    h.transport.failNext({ method: 'fetchMany' }, { kind: 'status', status: 503 });
    await updateParticipant(h.data, b.id, { phone: 'kept' });
    h.transport.server.remove('Participant', a.id);
    h.transport.server.remove('Participant', b.id);
    await h.engine.runOnce();
    await h.advance(61_000);
    expect(await h.db.participants.get(a.id)).toBeUndefined();
    // The edit's retry met the 404 first: out of the mirror at once (issue #9.7), the local copy
    // kept in the conflict.
    expect(await h.db.participants.get(b.id)).toBeUndefined();
    expect(await h.db.outbox.toArray()).toEqual([expect.objectContaining({ state: 'rejected', last_error: expect.objectContaining({ status: 404 }) })]);
    const conflicts = await h.db.conflicts.toArray();
    expect(conflicts).toEqual([expect.objectContaining({ kind: 'vanished', record_id: b.id, status: 'open', local_value: expect.objectContaining({ phone: 'kept' }) })]);
    // Keeping the local copy creates it again (with a fresh client_ref) under a new server id.
    await resolveConflict(h.data, conflicts[0].id!, 'local');
    await h.engine.runOnce();
    const recreated = h.transport.server.rows('Participant');
    expect(recreated).toEqual([expect.objectContaining({ first_name: 'B', phone: 'kept' })]);
    expect(await h.db.participants.get(recreated[0].id)).toMatchObject({ phone: 'kept' });
    expect(await h.db.outbox.count()).toBe(0);
  });

  it('lists ids only (fields=id), every 10 minutes, not right after a first full pull', async () => {
    const h = makeHarness();
    await synced(h);
    const listings = () => h.transport.callsOf('filter', 'Participant').filter((c) => c.args[1] === 'id');
    expect(listings()).toHaveLength(0);
    await h.advance(10 * 60_000 + 1);
    expect(listings()).toHaveLength(1);
    expect(listings()[0].args[4]).toEqual(['id']);
  });
});
