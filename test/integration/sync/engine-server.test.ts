import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { createParticipant, updateParticipant } from '../../../src/data/commands/participants';
import { enrollParticipant } from '../../../src/data/commands/enrollments';
import { deleteProgram } from '../../../src/data/commands/programs';
import { createCohort } from '../../../src/data/commands/cohorts';
import { makeDevice } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { startSyncServer, type FaultPlan, type SyncServer } from './sync-server';
import type { EngineTuning } from '../../../src/data/sync/types';

let server: SyncServer;
let n = 0;

beforeAll(async () => {
  server = await startSyncServer();
});
afterAll(async () => {
  await server.close();
});

/** A coach's device: its own database, engine, fake clock; commands run on its `data`. */
function device(opts: { who?: 'admin' | 'coach'; faults?: FaultPlan; token?: () => string; tuning?: Partial<EngineTuning> } = {}) {
  const who = opts.who ?? 'coach';
  const user = who === 'admin' ? server.admin : server.coach;
  const transport = createPlatformTransport(server.client(who, opts.faults, opts.token), user.id);
  return makeDevice({ name: `int-${n++}`, userId: user.id, clock: new FakeClock(Date.now()), transport, engine: { tuning: opts.tuning } });
}

async function seedCohort() {
  const admin = server.client('admin');
  const program = await admin.entities('Program').create({ program_name: `Welding ${n}`, active: true });
  const site = await admin.entities('Site').create({ site_name: `North ${n}`, site_type: 'prison', active: true });
  const cohort = await admin.entities('Cohort').create({ program_id: program.id, site_id: site.id, cohort_code: `W-N-${n}`, status: 'active' });
  return { program, site, cohort };
}

describe('engine against the real server', () => {
  it('S2/S3: an offline participant and its enrollment reach the server once, with server ids everywhere', async () => {
    const { cohort } = await seedCohort();
    const d = device();
    const p = await createParticipant(d.data, { first_name: 'Ana', last_name: 'Ruiz' });
    const e = await enrollParticipant(d.data, { participant_id: p.id, cohort_id: cohort.id });
    await d.engine.start();
    await d.settle();
    const serverP = (await server.rows('Participant')).filter((r) => r.client_ref === p.client_ref);
    const serverE = (await server.rows('Enrollment')).filter((r) => r.client_ref === e.client_ref);
    expect(serverP).toHaveLength(1);
    expect(serverE).toEqual([expect.objectContaining({ participant_id: serverP[0].id, cohort_id: cohort.id, enrollment_status: 'active' })]);
    expect(await d.db.enrollments.get(serverE[0].id)).toMatchObject({ participant_id: serverP[0].id });
    expect(await d.db.outbox.count()).toBe(0);
    await d.engine.stop();
  });

  it('S3: a create whose answer is lost is adopted by client_ref; no duplicate on the server', async () => {
    let dropped = 0;
    const d = device({ faults: (req) => (req.method === 'POST' && dropped++ === 0 ? 'drop-response' : 'none') });
    const p = await createParticipant(d.data, { first_name: 'Lost', last_name: 'Answer' });
    await d.engine.start();
    await d.settle();
    await d.advance(5_000);
    expect((await server.rows('Participant')).filter((r) => r.client_ref === p.client_ref)).toHaveLength(1);
    expect(await d.db.outbox.count()).toBe(0);
    await d.engine.stop();
  });

  it('S4: a field both devices changed keeps the local value on the server and records a conflict', async () => {
    const d = device();
    const p = await server.client('coach').entities('Participant').create({ first_name: 'Con', last_name: 'Flict', phone: '1' });
    await d.engine.start();
    await d.settle();
    await server.client('admin').entities('Participant').update(p.id, { phone: 'server', address: 'elsewhere' });
    await updateParticipant(d.data, p.id, { phone: 'local' });
    await d.engine.runOnce();
    const row = (await server.rows('Participant')).find((r) => r.id === p.id)!;
    expect(row).toMatchObject({ phone: 'local', address: 'elsewhere' });
    expect(await d.db.conflicts.toArray()).toEqual([expect.objectContaining({ field: 'phone', local_value: 'local', server_value: 'server' })]);
    expect(await d.db.participants.get(p.id)).toMatchObject({ phone: 'local', address: 'elsewhere', updated_date: row.updated_date });
    await d.engine.stop();
  });

  it('S5/S6: pulls in pages with ties by id, and the reconcile drops rows deleted on the server', async () => {
    const admin = server.client('admin');
    const made = await admin.entities('Site').bulkCreate(Array.from({ length: 7 }, (_, i) => ({ site_name: `Bulk ${n}-${i}`, active: true })));
    const d = device({ tuning: { pageSize: 2, reconcileMs: 60_000 } });
    await d.engine.start();
    await d.settle();
    const local = await d.db.sites.toArray();
    expect(local.length).toBe((await server.rows('Site')).length);
    await admin.entities('Site').delete(made[0].id);
    await d.advance(61_000);
    expect(await d.db.sites.get(made[0].id)).toBeUndefined();
    expect(await d.db.sites.count()).toBe((await server.rows('Site')).length);
    await d.engine.stop();
  });

  it('S8: a coach deleting a program is refused (403) and the op is rejected with the server message', async () => {
    // A program no cohort uses: one in use is refused on the device already (issue #12.4).
    const program = await server.client('admin').entities('Program').create({ program_name: `Unused ${n}`, active: true });
    const d = device();
    await d.engine.start();
    await d.settle();
    await deleteProgram(d.data, program.id);
    await d.engine.runOnce();
    const [op] = await d.db.outbox.toArray();
    expect(op).toMatchObject({ kind: 'delete', state: 'rejected', last_error: { status: 403 } });
    expect(op.last_error!.message.length).toBeGreaterThan(0);
    expect((await server.rows('Program')).some((r) => r.id === program.id)).toBe(true);
    await d.engine.stop();
  });

  it('S8, issue #12.3: a cohort created offline with a code another device took meanwhile is rejected (409) naming the field', async () => {
    const { program, site } = await seedCohort();
    const d = device();
    await d.engine.start();
    await d.settle();
    await d.engine.stop();
    // Offline: the code was free on this device; another device takes it before this one syncs.
    const mine = await createCohort(d.data, { program_id: program.id, site_id: site.id, cohort_code: `DUP-${n}`, start_date: '2026-01-05', status: 'planned' });
    await server.client('admin').entities('Cohort').create({ program_id: program.id, site_id: site.id, cohort_code: `DUP-${n}` });
    await d.engine.start();
    await d.settle();
    const [op] = await d.db.outbox.toArray();
    expect(op).toMatchObject({ kind: 'create', record_id: mine.id, state: 'rejected', last_error: { status: 409 } });
    expect(op.last_error!.message).toBe(`A cohort with the code DUP-${n} already exists. Cohort codes must be unique.`);
    expect((await server.rows('Cohort')).filter((r) => r.cohort_code === `DUP-${n}`)).toHaveLength(1);
    await d.engine.stop();
  });

  it('S8, issue #12.4: an admin deleting a program that cohorts use (unknown to the device yet) is rejected (409)', async () => {
    const d = device({ who: 'admin' });
    await d.engine.start();
    await d.settle();
    const program = await server.client('admin').entities('Program').create({ program_name: `Busy ${n}`, active: true });
    await d.db.programs.put(program as never);
    await server.client('admin').entities('Cohort').create({ program_id: program.id, site_id: 'x', cohort_code: `BUSY-${n}` });
    await deleteProgram(d.data, program.id);
    await d.engine.runOnce();
    const [op] = await d.db.outbox.toArray();
    expect(op).toMatchObject({ kind: 'delete', state: 'rejected', last_error: { status: 409 } });
    expect(op.last_error!.message).toBe('1 cohort uses this program. Move or delete it first.');
    expect((await server.rows('Program')).some((r) => r.id === program.id)).toBe(true);
    await d.engine.stop();
  });

  it('S8: an expired token pauses the queue (401) and keeps it', async () => {
    let token = 'not-a-valid-token';
    const d = device({ token: () => token });
    await createParticipant(d.data, { first_name: 'Wait', last_name: 'ForMe' });
    await d.engine.start();
    await d.settle();
    const status = (await d.db.meta.get('syncStatus'))!.value as { paused: string };
    expect(status.paused).toBe('auth');
    expect(await d.db.outbox.count()).toBe(1);
    token = server.tokens.coach;
    d.engine.resume();
    await d.settle();
    expect(await d.db.outbox.count()).toBe(0);
    await d.engine.stop();
  });

  it('a coach pulls users as id, email, full_name without losing its own cached profile', async () => {
    const d = device();
    await d.db.users.put({ ...(server.coach as unknown as { id: string; email: string }), coach_type: 'lead_coach' });
    await d.engine.start();
    await d.settle();
    expect(await d.db.users.get(server.admin.id)).toEqual({ id: server.admin.id, email: 'admin@example.org', full_name: 'admin' });
    expect(await d.db.users.get(server.coach.id)).toMatchObject({ coach_type: 'lead_coach', email: 'coach@example.org' });
    await d.engine.stop();
  });
});
