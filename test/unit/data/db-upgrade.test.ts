import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { PassageDB } from '../../../src/data/db';

/**
 * S13: Dexie versions are append-only. This is version 1 exactly as shipped — a frozen copy, NOT
 * imported from db.ts — so editing version 1 in place (instead of adding version 2 with an
 * upgrade) fails here. When a version 2 comes, add a test that opens a database seeded with this
 * version-1 schema and checks the upgrade moved every row.
 */
const SHIPPED_V1 = {
  participants: 'id, client_ref, academy_uid, custody_status, program_status, enrollment_date, projected_release_date, created_date, updated_date',
  cohorts: 'id, client_ref, program_id, site_id, status, start_date, created_date, updated_date',
  enrollments:
    'id, client_ref, participant_id, cohort_id, enrollment_status, [cohort_id+enrollment_status], [participant_id+enrollment_status], created_date, updated_date',
  sessions: 'id, cohort_id, scheduled_at, updated_date',
  outcomes: 'id, participant_id, updated_date',
  programs: 'id, client_ref, created_date, updated_date',
  sites: 'id, client_ref, site_type, created_date, updated_date',
  users: 'id, email, created_date, updated_date',
  outbox: '++seq, [entity+record_id], record_id, state, user_id, [user_id+state]',
  syncState: 'entity',
  conflicts: '++id, [entity+record_id], status',
  aliases: 'temp_id, server_id',
  meta: 'key',
};

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
    expect(await db.participants.orderBy('enrollment_date').primaryKeys()).toEqual(['p1']);
    expect(await db.participants.count()).toBe(2);
    expect(await db.enrollments.where('[cohort_id+enrollment_status]').equals(['c1', 'active']).count()).toBe(1);
    expect(await db.outbox.where('[user_id+state]').equals(['u1', 'pending']).count()).toBe(1);
    expect(await db.conflicts.where('status').equals('open').count()).toBe(1);
    expect(await db.aliases.get('local-y')).toMatchObject({ server_id: 'p1' });
    expect((await db.meta.get('currentUser'))?.value).toMatchObject({ email: 'coach@example.org' });
    expect(db.verno).toBe(1);
    db.close();
  });

  it('version 1 of the code is the shipped version 1 (no in-place edits)', async () => {
    const db = new PassageDB(`schema-${process.pid}-${Date.now()}`);
    await db.open();
    for (const [table, spec] of Object.entries(SHIPPED_V1)) {
      const schema = db.table(table).schema;
      const declared = [schema.primKey.src, ...schema.indexes.map((i) => i.src)];
      expect(declared.join(', '), table).toBe(spec);
    }
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(SHIPPED_V1).sort());
    db.close();
  });
});
