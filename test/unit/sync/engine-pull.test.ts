import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness';
import { ScriptedTransport } from '../../support/scripted-transport';
import { SyncEngine } from '../../../src/data/sync/engine';
import { PassageDB } from '../../../src/data/db';
import { readSyncStatus } from '../../../src/data/queries/sync-status';
import { makeDevice } from '../../support/device';
import type { EntityName } from '../../../shared/entities';

const BIG: EntityName[] = ['Enrollment', 'Session', 'Outcome'];
const pullsOf = (h: Harness) => h.transport.callsOf('filter').filter((c) => c.args[1] === 'updated_date');
const entry = async (h: Harness, entity: EntityName) => (await h.status()).firstSync.find((f) => f.entity === entity);
/** Let the engine work (a held request stays held) until `check` holds, or fail. */
async function until(h: Harness, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await h.flush();
  }
  throw new Error('condition never held');
}

describe('issue #11.3: fewer round trips', () => {
  it('pulls of different entities run concurrently, 4 at once by default', async () => {
    const h = makeHarness();
    await h.engine.start();
    await h.settle();
    h.transport.calls.length = 0;
    h.transport.failNext({ method: 'filter' }, { kind: 'hold' }, 100);
    h.engine.syncNow();
    await h.held(4);
    await h.flush();
    // Four requests in flight at once; the others wait for a free lane, not for their turn.
    expect(h.transport.heldCalls()).toHaveLength(4);
    for (let released = 0; released < 9; released++) {
      await h.held(1);
      h.transport.release(0);
      await h.flush();
    }
    await h.settle();
    expect(pullsOf(h).map((c) => c.entity).sort()).toEqual(['Attendance', 'Cohort', 'Enrollment', 'Outcome', 'Participant', 'Program', 'Session', 'Site', 'User']);
  });

  it('the first sync fetches participants and cohorts first: no enrollment, session or outcome request before they are downloaded', async () => {
    let participantsWhenBigStarted = -1;
    const transport = new (class extends ScriptedTransport {
      override async filter(...args: Parameters<ScriptedTransport['filter']>) {
        if (BIG.includes(args[0]) && participantsWhenBigStarted < 0) {
          participantsWhenBigStarted = this.callsOf('filter', 'Participant').filter((c) => c.args[1] === 'updated_date').length;
        }
        return super.filter(...args);
      }
    })();
    const h = makeHarness({ tuning: { pageSize: 2 }, transport });
    for (let i = 0; i < 5; i++) h.transport.server.create('Participant', { first_name: `P${i}` });
    h.transport.server.create('Cohort', { cohort_code: 'C1' });
    for (let i = 0; i < 3; i++) h.transport.server.create('Enrollment', { participant_id: 'x', cohort_id: 'y' });
    await h.engine.start();
    await h.settle();
    const order = pullsOf(h).map((c) => c.entity);
    expect(order[0]).toBe('Participant');
    const firstBig = order.findIndex((e) => BIG.includes(e));
    expect(order.slice(0, firstBig)).toEqual(expect.arrayContaining(['Participant', 'Cohort', 'Program', 'Site', 'User']));
    expect(order.lastIndexOf('Participant')).toBeLessThan(firstBig);
    // 5 participants in pages of 2: all 3 pages requested (and answered) before any big table.
    expect(participantsWhenBigStarted).toBe(3);
    expect(await h.db.enrollments.count()).toBe(3);
  });

  it("a coach's user list (no updated_date) is re-read only when a user was created or edited, or every 10 minutes", async () => {
    const h = makeHarness();
    h.transport.server.visible.set('User', ['email', 'full_name']);
    const ana = h.transport.server.create('User', { email: 'ana@example.org', full_name: 'Ana', role: 'user' });
    h.transport.server.create('User', { email: 'ben@example.org', full_name: 'Ben', role: 'user' });
    const fullReads = () => h.transport.callsOf('filter', 'User').filter((c) => c.args[1] === 'updated_date').length;
    await h.engine.start();
    await h.settle();
    expect(await h.db.users.get(ana.id)).toEqual({ id: ana.id, email: 'ana@example.org', full_name: 'Ana' });
    await h.engine.runOnce(); // learns the list's signature
    const reads = fullReads();
    await h.engine.runOnce();
    await h.engine.runOnce();
    expect(fullReads()).toBe(reads);
    // Instead, one small request per pull: which user was updated last.
    const checks = h.transport.callsOf('filter', 'User').filter((c) => c.args[1] === '-updated_date');
    expect(checks.length).toBeGreaterThanOrEqual(2);
    expect(checks.every((c) => c.args[2] === 1 && JSON.stringify(c.args[4]) === '["id"]')).toBe(true);

    h.transport.server.update('User', ana.id, { full_name: 'Ana Ruiz' });
    await h.engine.runOnce();
    expect(fullReads()).toBe(reads + 1);
    expect(await h.db.users.get(ana.id)).toMatchObject({ full_name: 'Ana Ruiz' });

    const cara = h.transport.server.create('User', { email: 'cara@example.org', full_name: 'Cara', role: 'user' });
    await h.engine.runOnce();
    expect(fullReads()).toBe(reads + 2);
    expect(await h.db.users.get(cara.id)).toMatchObject({ full_name: 'Cara' });

    // The one change the signature cannot see (the last-updated user edited again) waits for the
    // periodic full read, at most the reconcile interval.
    h.transport.server.update('User', cara.id, { full_name: 'Cara Lee' });
    await h.engine.runOnce();
    expect(fullReads()).toBe(reads + 2);
    await h.advance(10 * 60_000 + 1);
    expect(await h.db.users.get(cara.id)).toMatchObject({ full_name: 'Cara Lee' });
  });
});

describe('issue #9.5: first-sync progress, durable', () => {
  it('per entity: rows written so far, the server total from GET /count, done when its first pull ended', async () => {
    const h = makeHarness({ tuning: { pageSize: 3 } });
    for (let i = 0; i < 7; i++) h.transport.server.create('Participant', { first_name: `P${i}` });
    expect((await h.status()).firstSync).toEqual([]);
    h.transport.failNext({ method: 'filter', entity: 'Participant', skip: 1 }, { kind: 'hold' });
    await h.engine.start();
    await h.held(1);
    // The second page is requested while the first is written; the first shows once committed.
    await until(h, async () => (await entry(h, 'Participant'))?.rows === 3);
    expect(await entry(h, 'Participant')).toEqual({ entity: 'Participant', rows: 3, total: 7, done: false });
    expect((await h.status()).firstSyncComplete).toBe(false);
    expect(h.transport.callsOf('count', 'Participant')).toHaveLength(1);
    h.transport.release(0);
    await h.settle();
    expect(await entry(h, 'Participant')).toEqual({ entity: 'Participant', rows: 7, total: 7, done: true });
    const status = await h.status();
    expect(status.firstSync.map((f) => f.entity)).toEqual(['Participant', 'Cohort', 'Program', 'Site', 'User', 'Enrollment', 'Session', 'Outcome', 'Attendance']);
    expect(status.firstSync.every((f) => f.done)).toBe(true);
    expect(status.firstSyncComplete).toBe(true);
    // Later pulls ask no total again.
    await h.engine.runOnce();
    expect(h.transport.callsOf('count', 'Participant')).toHaveLength(1);
  });

  it('a first sync cut off half way stays incomplete across a reload, then finishes from where it stopped', async () => {
    const h = makeHarness({ tuning: { pageSize: 3 } });
    for (let i = 0; i < 7; i++) h.transport.server.create('Participant', { first_name: `P${i}` });
    h.transport.failNext({ method: 'filter', entity: 'Participant', skip: 1 }, { kind: 'timeout' }, 1000);
    await h.engine.start();
    await h.settle();
    expect((await h.status()).firstSyncComplete).toBe(false);
    expect(await entry(h, 'Participant')).toMatchObject({ rows: 3, done: false });
    await h.engine.stop();

    // A reload: a new engine on the same database, still without a connection.
    h.transport.offline = true;
    const again = new SyncEngine({ db: h.db, transport: h.transport, clock: h.clock, userId: 'user-1', random: () => 0.5 });
    await again.start();
    await again.idle();
    expect((await h.status()).firstSyncComplete).toBe(false);
    expect(await entry(h, 'Participant')).toMatchObject({ rows: 3, total: 7, done: false });

    h.transport.offline = false;
    await again.stop();
    (h.transport as unknown as { rules: unknown[] }).rules.length = 0;
    h.transport.calls.length = 0;
    const third = new SyncEngine({ db: h.db, transport: h.transport, clock: h.clock, userId: 'user-1', random: () => 0.5, tuning: { pageSize: 3 } });
    await third.start();
    await third.idle();
    expect(await entry(h, 'Participant')).toEqual({ entity: 'Participant', rows: 7, total: 7, done: true });
    expect((await h.status()).firstSyncComplete).toBe(true);
    expect(await h.db.participants.count()).toBe(7);
    // It went on from its cursor: the first page was not downloaded again.
    const [resumed] = h.transport.callsOf('filter', 'Participant');
    expect(resumed.args[0]).toHaveProperty('updated_date');
    await third.stop();
  });

  it('an entity this user may not read (403) counts as done; when it becomes readable its first pull shows again', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'filter', entity: 'Outcome' }, { kind: 'status', status: 403, message: 'Only administrators may do this' }, 2);
    await h.engine.start();
    await h.settle();
    expect(await entry(h, 'Outcome')).toMatchObject({ done: true });
    expect((await h.status()).firstSyncComplete).toBe(true);

    await h.engine.runOnce(); // still refused
    h.transport.server.create('Outcome', { participant_id: 'p' });
    h.transport.failNext({ method: 'filter', entity: 'Outcome' }, { kind: 'hold' });
    h.engine.syncNow();
    await h.held(1);
    await h.flush();
    expect(await entry(h, 'Outcome')).toMatchObject({ done: false, total: 1 });
    expect((await h.status()).firstSyncComplete).toBe(false);
    h.transport.release(0);
    await h.settle();
    expect(await entry(h, 'Outcome')).toEqual({ entity: 'Outcome', rows: 1, total: 1, done: true });
    expect((await h.status()).firstSyncComplete).toBe(true);
  });

  it('a device upgraded from version 1 after a complete sync reads as complete offline, with no new first sync', async () => {
    const name = `v1-synced-${process.pid}-${Date.now()}`;
    const old = new Dexie(name);
    old.version(1).stores({
      participants: 'id, client_ref, academy_uid, custody_status, program_status, enrollment_date, projected_release_date, created_date, updated_date',
      syncState: 'entity',
      meta: 'key',
    });
    await old.open();
    await old.table('participants').put({ id: 'p1', first_name: 'Ana', updated_date: '2026-01-02T00:00:00.000Z' });
    const entities = ['Participant', 'Cohort', 'Program', 'Site', 'User', 'Enrollment', 'Session', 'Outcome'];
    await old.table('syncState').bulkPut(entities.map((entity) => ({ entity, cursor: '2026-01-02T00:00:00.000Z', last_pulled_at: 1, last_reconciled_at: 1 })));
    await old.table('meta').put({ key: 'syncStatus', value: { online: true, syncing: false, lastSyncedAt: 1, paused: null, leader: false, lastError: null } });
    old.close();

    const db = new PassageDB(name);
    const { data } = makeDevice({ db, userId: 'user-1' });
    expect((await readSyncStatus(data)).firstSyncComplete).toBe(true);
    const transport = new ScriptedTransport();
    transport.offline = true;
    const clock = { now: () => Date.UTC(2026, 0, 3), setTimeout: () => 0, clearTimeout: () => {} };
    const engine = new SyncEngine({ db, transport, clock, userId: 'user-1', random: () => 0.5 });
    await engine.start();
    await engine.idle();
    const status = await readSyncStatus(data);
    expect(status.firstSyncComplete).toBe(true);
    // Attendance (version 5) counts as done too: its rows come with the next pull, from the start.
    expect(status.firstSync.every((f) => f.done)).toBe(true);
    await engine.stop();
    // Online, it pulls from the cursors it had: no count, no listing from the beginning.
    transport.offline = false;
    await engine.start();
    await engine.runOnce();
    expect(transport.callsOf('count')).toEqual([]);
    expect(transport.callsOf('filter').filter((c) => c.args[1] === 'updated_date').every((c) => 'updated_date' in (c.args[0] as object))).toBe(true);
    await engine.stop();
    db.close();
  });
});
