import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { PassageDB } from '../../../src/data/db';
import { SHIPPED_V1, SHIPPED_V2 } from '../../support/shipped-schemas';
import { KeyRing } from '../../../src/data/vault/key-ring';
import { createVault, sealExistingRows } from '../../../src/data/vault/device-vault';

/**
 * S13: Dexie versions are append-only. SHIPPED_V1 and SHIPPED_V2 (test/support/shipped-schemas.ts)
 * are versions 1 and 2 exactly as shipped — frozen copies, NOT imported from db.ts — so editing a
 * shipped version in place (instead of adding the next one with an upgrade) fails here. Each
 * upgrade is tested on a database seeded with the previous version's schema.
 */

const ENTITIES = ['Participant', 'Cohort', 'Program', 'Site', 'User', 'Enrollment', 'Session', 'Outcome'];

/** A version-1 database as a device that ran the shipped app has it. */
async function seedV1(name: string, seed: (old: Dexie) => Promise<void>): Promise<void> {
  const old = new Dexie(name);
  old.version(1).stores(SHIPPED_V1);
  await old.open();
  await seed(old);
  old.close();
}

describe('S13 schema', () => {
  it('a database seeded with the shipped version-1 schema opens with the current code and keeps its data', async () => {
    const name = `upgrade-${process.pid}-${Date.now()}`;
    const old = new Dexie(name);
    old.version(1).stores(SHIPPED_V1);
    await old.open();
    await old.table('participants').bulkPut([
      { id: 'p1', first_name: 'Ana', last_name: 'Ruiz', enrollment_date: '2026-01-02', client_ref: 'r1' },
      { id: 'local-x', first_name: 'Ben', last_name: 'Ng', client_ref: 'r2' },
    ]);
    await old.table('enrollments').put({ id: 'e1', participant_id: 'p1', cohort_id: 'c1', enrollment_status: 'active' });
    await old.table('outbox').add({ entity: 'Participant', record_id: 'local-x', kind: 'create', data: { first_name: 'Ben' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'u1', created_at: 1 });
    await old.table('conflicts').add({ entity: 'Participant', record_id: 'p1', field: 'phone', local_value: 'a', server_value: 'b', status: 'open', kind: 'field', detected_at: 1, server_updated_date: null });
    await old.table('aliases').put({ temp_id: 'local-y', entity: 'Participant', server_id: 'p1' });
    await old.table('meta').put({ key: 'currentUser', value: { id: 'u1', email: 'coach@example.org' } });
    old.close();

    const db = new PassageDB(name);
    await db.open();
    expect(await db.participants.get('p1')).toMatchObject({ first_name: 'Ana', enrollment_date: '2026-01-02', client_ref: 'r1' });
    expect(await db.participants.count()).toBe(2);
    expect(await db.enrollments.where('[cohort_id+enrollment_status]').equals(['c1', 'active']).count()).toBe(1);
    expect(await db.outbox.where('[user_id+state]').equals(['u1', 'pending']).count()).toBe(1);
    expect(await db.conflicts.where('status').equals('open').count()).toBe(1);
    expect(await db.aliases.get('local-y')).toMatchObject({ server_id: 'p1' });
    expect((await db.meta.get('currentUser'))?.value).toMatchObject({ email: 'coach@example.org' });
    expect(db.verno).toBe(5);
    db.close();
  });

  it('the shipped versions 1 and 2 are unchanged in the code (no in-place edits)', async () => {
    for (const [version, shipped] of [
      [1, SHIPPED_V1],
      [2, SHIPPED_V2],
    ] as const) {
      // Open only up to `version` of the code's schema: a Dexie of the same name at that version.
      const name = `schema-${process.pid}-${Date.now()}-v${version}`;
      const code = new PassageDB(name);
      // Dexie keeps each declared version's stores in an internal list (not in its public types).
      const versions = (code as unknown as { _versions: Array<{ _cfg: { version: number; storesSource: Record<string, string | null> } }> })._versions;
      const declaredOf = versions
        .filter((v) => v._cfg.version <= version)
        .reduce<Record<string, string | null>>((acc, v) => ({ ...acc, ...v._cfg.storesSource }), {});
      expect(declaredOf, `version ${version}`).toEqual(shipped);
    }
    const db = new PassageDB(`schema-${process.pid}-${Date.now()}`);
    await db.open();
    for (const [table, spec] of Object.entries(SHIPPED_V2)) {
      const schema = db.table(table).schema;
      const declared = [schema.primKey.src, ...schema.indexes.map((i) => i.src)];
      expect(declared.join(', '), table).toBe(spec);
    }
    db.close();
  });

  it('v1 → v2: a device that had finished its first sync reads as complete, without a new first sync', async () => {
    const name = `upgrade-synced-${process.pid}-${Date.now()}`;
    await seedV1(name, async (old) => {
      await old.table('participants').bulkPut([{ id: 'p1' }, { id: 'p2' }]);
      // A coach on v1 after a whole cycle: every entity pulled (User as a projection: no cursor).
      await old.table('syncState').bulkPut(
        ENTITIES.map((entity) => ({ entity, cursor: entity === 'User' ? null : '2026-01-02T00:00:00.000Z', last_pulled_at: 5, last_reconciled_at: 5 })),
      );
      await old.table('meta').put({ key: 'syncStatus', value: { online: true, syncing: false, lastSyncedAt: 5, paused: null, leader: false, lastError: null } });
    });
    const db = new PassageDB(name);
    await db.open();
    const states = await db.syncState.toArray();
    expect(states).toHaveLength(9);
    for (const s of states.filter((s) => s.entity !== 'Attendance')) expect(s, s.entity).toMatchObject({ first_done: true, last_pulled_at: 5 });
    // Version 5's entity counts as done on a synced device, from an empty cursor (pulled whole next time).
    expect(await db.syncState.get('Attendance')).toMatchObject({ first_done: true, cursor: null });
    expect(await db.syncState.get('Participant')).toMatchObject({ cursor: '2026-01-02T00:00:00.000Z', first_rows: 2 });
    expect((await db.meta.get('syncStatus'))?.value).toMatchObject({ lastSyncedAt: 5, firstSyncComplete: true });
    db.close();
  });

  it('v1 → v2: a first sync cut off half way stays unfinished; an entity v1 never could read counts as done', async () => {
    const cutName = `upgrade-cut-${process.pid}-${Date.now()}`;
    await seedV1(cutName, async (old) => {
      await old.table('participants').put({ id: 'p1' });
      await old.table('syncState').put({ entity: 'Participant', cursor: '2026-01-02T00:00:00.000Z', last_pulled_at: 5, last_reconciled_at: null });
      await old.table('meta').put({ key: 'syncStatus', value: { online: false, syncing: false, lastSyncedAt: null, paused: null, leader: false, lastError: null } });
    });
    const cut = new PassageDB(cutName);
    await cut.open();
    expect((await cut.syncState.get('Participant'))?.first_done).toBeUndefined();
    expect((await cut.meta.get('syncStatus'))?.value).not.toHaveProperty('firstSyncComplete', true);
    cut.close();

    const refusedName = `upgrade-refused-${process.pid}-${Date.now()}`;
    await seedV1(refusedName, async (old) => {
      // An account awaiting approval: every pull refused, so v1 never wrote a syncState row.
      await old.table('meta').put({ key: 'syncStatus', value: { online: true, syncing: false, lastSyncedAt: 7, paused: null, leader: false, lastError: null } });
    });
    const refused = new PassageDB(refusedName);
    await refused.open();
    expect(await refused.syncState.get('Outcome')).toMatchObject({ unreadable: true, cursor: null });
    refused.close();
  });

  it('v1 → v3 (issue #14): the version-1 mirror opens locked and readable, and the first unlock seals it in place, pending op included', async () => {
    const name = `upgrade-seal-${process.pid}-${Date.now()}`;
    await seedV1(name, async (old) => {
      await old.table('participants').put({ id: 'p1', first_name: 'Ana', last_name: 'Ruiz', cdcr_number: 'AB1234', custody_status: 'released' });
      await old.table('outbox').add({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '555-0101' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'u1', created_at: 1 });
      await old.table('meta').put({ key: 'currentUser', value: { id: 'u1', email: 'coach@example.org' } });
    });
    const db = new PassageDB(name, new KeyRing());
    expect(await db.participants.get('p1')).toMatchObject({ first_name: 'Ana' });
    await createVault(db, 'u1');
    expect(await sealExistingRows(db)).toBeGreaterThanOrEqual(3);
    db.close();

    const raw = new Dexie(name);
    await raw.open();
    const text = JSON.stringify([await raw.table('participants').toArray(), await raw.table('outbox').toArray(), await raw.table('meta').toArray()], (_k, v: unknown) =>
      v instanceof Uint8Array ? '[sealed]' : v,
    );
    raw.close();
    for (const secret of ['Ana', 'Ruiz', 'AB1234', '555-0101', 'coach@example.org']) expect(text).not.toContain(secret);
    expect(text).toContain('released');
    expect(text).toContain('"state":"pending"');
  });

  it('v3 → v4 (issue #22): a tablet opens with an empty pins table and keeps every row and queued op', async () => {
    const name = `upgrade-v4-${process.pid}-${Date.now()}`;
    const old = new Dexie(name);
    old.version(1).stores(SHIPPED_V1);
    old.version(2).stores(SHIPPED_V2);
    old.version(3).stores({});
    await old.open();
    await old.table('cohorts').put({ id: 'c1', site_id: 's1', program_id: 'g1' });
    await old.table('outbox').add({ entity: 'Cohort', record_id: 'c1', kind: 'update', data: { capacity: 12 }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'u1', created_at: 1 });
    await old.table('syncState').put({ entity: 'Cohort', cursor: '2026-01-01T00:00:00.000Z', last_pulled_at: 1, last_reconciled_at: 1, first_done: true });
    old.close();

    const db = new PassageDB(name);
    await db.open();
    expect(db.verno).toBe(5);
    expect(await db.pins.count()).toBe(0);
    await db.pins.put({ entity: 'Participant', id: 'p1', reason: 'own', until: null });
    await db.pins.put({ entity: 'Participant', id: 'p1', reason: 'opened', until: 5 });
    expect(await db.pins.count()).toBe(2); // one record may hold both pins
    expect(await db.cohorts.get('c1')).toMatchObject({ site_id: 's1' });
    expect(await db.outbox.count()).toBe(1);
    // A cursor from before scopes covers the whole entity (no scope_keys): nothing is downloaded again.
    expect((await db.syncState.get('Cohort'))?.scope_keys).toBeUndefined();
    db.close();
  });
  it('v4 → v5 (issue #23): a tablet opens with an empty attendance table, indexed by pair, and keeps every row and queued op', async () => {
    const name = `upgrade-v5-${process.pid}-${Date.now()}`;
    const old = new Dexie(name);
    old.version(1).stores(SHIPPED_V1);
    old.version(2).stores(SHIPPED_V2);
    old.version(3).stores({});
    old.version(4).stores({ pins: '[entity+id+reason], until' });
    await old.open();
    await old.table('sessions').put({ id: 's1', cohort_id: 'c1', session_number: 1 });
    await old.table('outbox').add({ entity: 'Session', record_id: 's1', kind: 'update', data: { topic: 'Budgets' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'u1', created_at: 1 });
    await old.table('pins').put({ entity: 'Participant', id: 'p1', reason: 'own', until: null });
    old.close();

    const db = new PassageDB(name);
    await db.open();
    expect(db.verno).toBe(5);
    expect(await db.attendance.count()).toBe(0);
    expect(await db.sessions.get('s1')).toMatchObject({ cohort_id: 'c1' });
    expect(await db.outbox.count()).toBe(1);
    expect(await db.pins.count()).toBe(1);
    await db.attendance.put({ id: 'a1', session_id: 's1', cohort_id: 'c1', participant_id: 'p1', status: 'present', note: 'came early' });
    expect(await db.attendance.where('[session_id+participant_id]').equals(['s1', 'p1']).count()).toBe(1);
    expect((await db.attendance.get('a1'))?.note).toBe('came early'); // sealed at rest, opened on read
    db.close();
  });
});

