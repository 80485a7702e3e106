import { describe, expect, it } from 'vitest';
import { makeHarness } from './harness';
import { createParticipant, updateParticipant } from '../../../src/data/commands/participants';
import { enrollParticipant } from '../../../src/data/commands/enrollments';

describe('S1 one transaction', () => {
  it('an op leaves the outbox only together with the server answer landing in the mirror', async () => {
    const h = makeHarness();
    const p = await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz' });
    await h.engine.start();
    await h.settle();
    const [server] = h.transport.server.rows('Participant');
    expect(await h.db.outbox.count()).toBe(0);
    expect(await h.db.participants.get(p.id)).toBeUndefined();
    expect(await h.db.participants.get(server.id)).toMatchObject({ first_name: 'Ana', updated_date: server.updated_date });
  });

  it('a failed push keeps both the op and the local row', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 503 });
    const p = await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz' });
    await h.engine.start();
    await h.settle();
    expect(await h.db.outbox.count()).toBe(1);
    expect(await h.db.participants.get(p.id)).toMatchObject({ first_name: 'Ana' });
  });
});

describe('S2 ids', () => {
  it('rewrites the row, references, queued ops and keeps an alias when the server assigns the id', async () => {
    const h = makeHarness();
    const p = await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz' });
    const e = await enrollParticipant(h.data, { participant_id: p.id, cohort_id: 'c1' });
    // The participant's create is in flight when the person edits it again.
    h.transport.failNext({ method: 'create', entity: 'Participant' }, { kind: 'hold' });
    await h.engine.start();
    await h.held(1);
    await updateParticipant(h.data, p.id, { phone: '555' });
    h.transport.release(0);
    await h.settle();
    await h.engine.runOnce();
    const [srvP] = h.transport.server.rows('Participant');
    const [srvE] = h.transport.server.rows('Enrollment');
    expect(srvE.participant_id).toBe(srvP.id);
    expect(srvP.phone).toBe('555');
    expect(await h.db.aliases.get(p.id)).toMatchObject({ server_id: srvP.id, entity: 'Participant' });
    expect(await h.db.enrollments.get(srvE.id)).toMatchObject({ participant_id: srvP.id });
    expect(await h.db.enrollments.get(e.id)).toBeUndefined();
    expect(await h.db.participants.get(srvP.id)).toMatchObject({ phone: '555' });
    expect(await h.db.outbox.count()).toBe(0);
  });

  it('answers arriving out of order land on the right records', async () => {
    const h = makeHarness({ tuning: { maxBulk: 1 } });
    h.transport.failNext({ method: 'create' }, { kind: 'hold' }, 2);
    const a = await createParticipant(h.data, { first_name: 'A', last_name: 'One' });
    const b = await createParticipant(h.data, { first_name: 'B', last_name: 'Two' });
    await h.engine.start();
    await h.held(2);
    h.transport.release(1);
    await h.flush();
    h.transport.release(0);
    await h.settle();
    const byName = new Map((await h.db.participants.toArray()).map((r) => [r.first_name, r]));
    const server = new Map(h.transport.server.rows('Participant').map((r) => [r.first_name, r]));
    expect(byName.get('A')!.id).toBe(server.get('A')!.id);
    expect(byName.get('B')!.id).toBe(server.get('B')!.id);
    expect((await h.db.aliases.get(a.id))!.server_id).toBe(server.get('A')!.id);
    expect((await h.db.aliases.get(b.id))!.server_id).toBe(server.get('B')!.id);
  });
});

describe('S3 exactly once', () => {
  it('a create applied but whose answer was lost is adopted by client_ref, not sent twice', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'drop-response' });
    const p = await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz' });
    await h.engine.start();
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    await h.advance(60_000);
    const rows = h.transport.server.rows('Participant');
    expect(rows).toHaveLength(1);
    expect(rows[0].client_ref).toBe(p.client_ref);
    expect(h.transport.callsOf('create')).toHaveLength(1);
    expect(await h.db.outbox.count()).toBe(0);
    expect(await h.db.participants.toArray()).toEqual([expect.objectContaining({ id: rows[0].id })]);
  });

  it('a create that never arrived is looked up, not found, and sent again', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'timeout' });
    await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz' });
    await h.engine.start();
    await h.settle();
    await h.advance(60_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect(h.transport.callsOf('create')).toHaveLength(2);
    const lookups = h.transport.callsOf('filter', 'Participant').filter((c) => JSON.stringify(c.args[0]).includes('client_ref'));
    expect(lookups).toHaveLength(1);
  });

  it('a bulk create whose answer was lost is adopted whole', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'bulkCreate' }, { kind: 'drop-response' });
    for (let i = 0; i < 5; i++) await createParticipant(h.data, { first_name: `P${i}`, last_name: 'X' });
    await h.engine.start();
    await h.settle();
    await h.advance(60_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(5);
    expect(await h.db.participants.count()).toBe(5);
    expect((await h.db.participants.toArray()).every((r) => r.id.startsWith('srv-'))).toBe(true);
  });

  it('an edit made while a lost create waits for its look-up reaches the server (it is not folded into the create)', async () => {
    const h = makeHarness();
    // Applied, answer lost: the create waits, flagged for a client_ref look-up.
    h.transport.failNext({ method: 'create' }, { kind: 'drop-response', status: 502 }, 3);
    h.transport.failNext({ method: 'filter' }, { kind: 'status', status: 503 }, 3);
    const p = await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz', phone: '555-0100' });
    await h.engine.start();
    await h.settle();
    expect(h.transport.server.rows('Participant')).toEqual([expect.objectContaining({ phone: '555-0100' })]);
    expect(await h.db.outbox.toArray()).toEqual([expect.objectContaining({ kind: 'create', state: 'pending', outcome_unknown: true })]);
    // The coach corrects the phone before the look-up ran: the server already holds the old body.
    await updateParticipant(h.data, p.id, { phone: '555-0199' });
    await h.advance(60_000);
    const rows = h.transport.server.rows('Participant');
    expect(rows).toEqual([expect.objectContaining({ client_ref: p.client_ref, phone: '555-0199' })]);
    expect(await h.db.outbox.count()).toBe(0);
    expect(await h.db.participants.get(rows[0].id)).toMatchObject({ phone: '555-0199' });
  });

  it('an edit queued behind a lost create still sees another device’s change of the same field as a conflict', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'drop-response', status: 502 });
    h.transport.failNext({ method: 'filter' }, { kind: 'status', status: 503 }, 3);
    const p = await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz' });
    await h.engine.start();
    await h.settle();
    await updateParticipant(h.data, p.id, { phone: '555-0101' });
    // Meanwhile an administrator, who sees the new record on the server, sets the same field.
    const [srv] = h.transport.server.rows('Participant');
    h.transport.server.update('Participant', srv.id, { phone: '555-0202' });
    await h.advance(60_000);
    expect(await h.db.outbox.count()).toBe(0);
    expect(await h.db.conflicts.toArray()).toEqual([
      expect.objectContaining({ record_id: srv.id, field: 'phone', local_value: '555-0101', server_value: '555-0202', status: 'open' }),
    ]);
  });

  it('a pull that brings the lost create back adopts it before any resend', async () => {
    const h = makeHarness();
    // Applied, then a proxy answered 502: the op backs off, the same cycle's pull finds the row.
    h.transport.failNext({ method: 'create' }, { kind: 'drop-response', status: 502 });
    const p = await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz' });
    const e = await enrollParticipant(h.data, { participant_id: p.id, cohort_id: 'c1' });
    await h.engine.start();
    await h.settle();
    const [srvP] = h.transport.server.rows('Participant');
    expect(await h.db.participants.get(srvP.id)).toMatchObject({ client_ref: p.client_ref });
    expect(await h.db.aliases.get(p.id)).toMatchObject({ server_id: srvP.id });
    // The enrollment that waited on it went out in the same cycle with the server id.
    expect(h.transport.server.rows('Enrollment')).toEqual([expect.objectContaining({ participant_id: srvP.id, client_ref: e.client_ref })]);
    expect(h.transport.callsOf('create', 'Participant')).toHaveLength(1);
  });
});

describe('S7 order', () => {
  it('independent creates go in one bulk call', async () => {
    const h = makeHarness();
    for (let i = 0; i < 5; i++) await createParticipant(h.data, { first_name: `P${i}`, last_name: 'X' });
    await h.engine.start();
    await h.settle();
    expect(h.transport.callsOf('bulkCreate')).toHaveLength(1);
    expect(h.transport.callsOf('create')).toHaveLength(0);
    expect(h.transport.server.rows('Participant')).toHaveLength(5);
  });

  it('a refused bulk is retried one by one, so only the bad op is rejected', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'bulkCreate' }, { kind: 'status', status: 422, message: 'first_name is required' });
    for (let i = 0; i < 3; i++) await createParticipant(h.data, { first_name: `P${i}`, last_name: 'X' });
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 422, message: 'first_name is required' });
    await h.engine.start();
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(2);
    const left = await h.db.outbox.toArray();
    expect(left).toEqual([expect.objectContaining({ state: 'rejected', last_error: expect.objectContaining({ status: 422, message: 'first_name is required' }) })]);
  });

  it('an edit made before the create reached the server goes after it, to the server id', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'hold' });
    const p = await createParticipant(h.data, { first_name: 'Ana', last_name: 'Ruiz' });
    await h.engine.start();
    await h.held(1);
    await updateParticipant(h.data, p.id, { last_name: 'Ruiz-Lopez' });
    expect(h.transport.callsOf('update')).toHaveLength(0);
    h.transport.release(0);
    await h.settle();
    await h.engine.runOnce();
    const [srv] = h.transport.server.rows('Participant');
    expect(h.transport.callsOf('update')).toEqual([expect.objectContaining({ args: [srv.id, { last_name: 'Ruiz-Lopez' }] })]);
  });

  it('edits of several records go in one bulkUpdate; a refused bulk goes one PUT each', async () => {
    const h = makeHarness();
    const rows = [1, 2, 3].map((i) => h.transport.server.create('Participant', { first_name: `P${i}`, last_name: 'X' }));
    await h.engine.start();
    await h.settle();
    for (const r of rows) await updateParticipant(h.data, r.id, { phone: `1-${r.id}` });
    await h.engine.runOnce();
    expect(h.transport.callsOf('bulkUpdate')).toHaveLength(1);
    expect(h.transport.callsOf('update')).toHaveLength(0);
    expect(rows.map((r) => h.transport.server.get('Participant', r.id)!.phone)).toEqual(rows.map((r) => `1-${r.id}`));

    h.transport.failNext({ method: 'bulkUpdate' }, { kind: 'status', status: 422, message: 'phone is invalid' });
    h.transport.failNext({ method: 'update', skip: 1 }, { kind: 'status', status: 422, message: 'phone is invalid' });
    for (const r of rows) await updateParticipant(h.data, r.id, { phone: `2-${r.id}` });
    await h.engine.runOnce();
    expect(h.transport.callsOf('update')).toHaveLength(3);
    const left = await h.db.outbox.toArray();
    expect(left).toEqual([expect.objectContaining({ record_id: rows[1].id, state: 'rejected', last_error: expect.objectContaining({ message: 'phone is invalid' }) })]);
    expect(h.transport.server.get('Participant', rows[0].id)!.phone).toBe(`2-${rows[0].id}`);
    expect(h.transport.server.get('Participant', rows[2].id)!.phone).toBe(`2-${rows[2].id}`);
  });
});
