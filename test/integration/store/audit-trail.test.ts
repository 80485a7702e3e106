/**
 * Issue #26 (docs/design.md S19): the audit trail in the store, on PGlite and on PostgreSQL — every
 * record write leaves its event in the same transaction, the table refuses changes, and the chain
 * shows an UPDATE, a DELETE or an insert made directly in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWithAudit, type AuditContext } from '../../../server/store/audit-context';
import { verifyAuditChain } from '../../../server/store/audit-store';
import { createPostgresStore } from '../../../server/store/postgres-store';
import { type SqlClient } from '../../../server/store/sql-client';
import { openPostgres } from '../../../server/store/pg-client';
import { openPglite } from '../../../server/store/pglite-client';
import type { EntityRecord, Store } from '../../../server/store/types';
import { acquirePostgres, postgresInstalled } from './pg-test-cluster';

const system = { by: null, byId: null };
const coach: AuditContext = { actor_id: 'u-coach', actor_email: 'coach@example.org', device_id: 'tablet-0123456789ab', address: '10.0.0.7' };

interface Backend {
  name: string;
  open(): Promise<{ sql: SqlClient; close(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'PGlite',
    open: async () => {
      const sql = await openPglite('memory://');
      return { sql, close: () => sql.close() };
    },
  },
];
if (postgresInstalled) {
  backends.push({
    name: 'PostgreSQL',
    open: async () => {
      const pg = await acquirePostgres();
      const sql = openPostgres(pg.url);
      return {
        sql,
        close: async () => {
          await sql.close();
          pg.release();
        },
      };
    },
  });
}

describe.each(backends)('S19 audit trail in the store on $name', (backend) => {
  let sql: SqlClient;
  let store: Store;
  let close: () => Promise<void>;
  let serial = 0;
  /** A fresh app per test: the PostgreSQL database is shared between runs. */
  const newApp = () => `audit-${Date.now().toString(36)}-${++serial}`;
  const events = (app: string, q?: Record<string, unknown>) => store.listAudit(app, { q, sort: 'created_date' });
  const chainOf = async (app: string) => (await verifyAuditChain(sql)).find((r) => r.app === app);

  beforeAll(async () => {
    ({ sql, close } = await backend.open());
    store = createPostgresStore(sql);
    await store.migrate();
  });
  afterAll(() => close());

  it('records create, update (changed fields, old and new) and delete with the actor, device, address and edit time', async () => {
    const app = newApp();
    const made = await runWithAudit({ ...coach, edit_times: ['2026-03-01T08:00:00.000Z'] }, () =>
      store.create(app, 'Participant', { first_name: 'Ana', last_name: 'Diaz', custody_status: 'in-custody' }, system),
    );
    await runWithAudit({ ...coach, edit_times: ['2026-03-01T09:30:00.000Z'] }, () => store.update(app, 'Participant', made.id, { custody_status: 'released', last_name: 'Diaz' }));
    await runWithAudit(coach, () => store.delete(app, 'Participant', made.id));
    const [created, updated, deleted] = await events(app);
    expect(created).toMatchObject({
      seq: 1, action: 'create', entity: 'Participant', record_id: made.id, outcome: 'success',
      actor_id: 'u-coach', actor_email: 'coach@example.org', device_id: 'tablet-0123456789ab', address: '10.0.0.7',
      client_time: '2026-03-01T08:00:00.000Z',
      changes: { first_name: { old: null, new: 'Ana' }, last_name: { old: null, new: 'Diaz' }, custody_status: { old: null, new: 'in-custody' } },
    });
    // Only what changed (last_name was sent unchanged), never updated_date.
    expect(updated).toMatchObject({ seq: 2, action: 'update', client_time: '2026-03-01T09:30:00.000Z', changes: { custody_status: { old: 'in-custody', new: 'released' } } });
    expect(Object.keys(updated.changes as object)).toEqual(['custody_status']);
    expect(deleted).toMatchObject({ seq: 3, action: 'delete', client_time: null, changes: { first_name: { old: 'Ana', new: null }, custody_status: { old: 'released', new: null } } });
    expect(created.id).toBe('000000000000000000000001');
    expect(updated.prev_hash).toBe(created.hash);
    expect(deleted.created_date >= updated.created_date).toBe(true);
    expect((await chainOf(app))?.broken).toBeNull();
  });

  it('records writes without a request as the system, and a bulk write as one event per record in order', async () => {
    const app = newApp();
    const rows = await runWithAudit({ ...coach, edit_times: ['2026-03-02T10:00:00.000Z', null, 'not a time'] }, () =>
      store.createMany(app, 'Participant', [{ first_name: 'A', last_name: '1' }, { first_name: 'B', last_name: '2' }, { first_name: 'C', last_name: '3' }], system),
    );
    await store.update(app, 'Participant', rows[0].id, { phone: '555' });
    const list = await events(app);
    expect(list.map((e) => [e.record_id, e.client_time])).toEqual([
      [rows[0].id, '2026-03-02T10:00:00.000Z'],
      [rows[1].id, null],
      [rows[2].id, 'not a time'], // the store keeps what the HTTP layer validated; shared/audit.ts decodeEditTimes drops it
      [rows[0].id, null],
    ]);
    expect(list[3]).toMatchObject({ actor_id: null, actor_email: 'system', action: 'update' });
  });

  it('names enrolment, unenrolment, approvals, rejections, role changes and conflict resolutions', async () => {
    const app = newApp();
    const enrollment = await store.create(app, 'Enrollment', { participant_id: 'p', cohort_id: 'c', enrollment_status: 'active' }, system);
    await store.update(app, 'Enrollment', enrollment.id, { enrollment_status: 'withdrawn' });
    await store.update(app, 'Enrollment', enrollment.id, { enrollment_status: 'active' });
    await store.delete(app, 'Enrollment', enrollment.id);
    const user = await store.create(app, 'User', { email: 'new@example.org', role: 'user', approved: false }, system);
    await store.update(app, 'User', user.id, { approved: true });
    await store.update(app, 'User', user.id, { role: 'admin' });
    await store.update(app, 'User', user.id, { role: 'guest' });
    await runWithAudit({ ...coach, resolves_conflict: true }, () => store.update(app, 'User', user.id, { phone: '1' }));
    expect((await events(app)).map((e) => e.action)).toEqual(['enroll', 'unenroll', 'enroll', 'unenroll', 'create', 'approve', 'role_change', 'reject', 'resolve_conflict']);
  });

  it('leaves no event of a write whose transaction fails', async () => {
    const app = newApp();
    const [a, b] = await store.createMany(app, 'Participant', [{ first_name: 'A', last_name: '1', client_ref: 'ref-a' }, { first_name: 'B', last_name: '2', client_ref: 'ref-b' }], system);
    const before = await store.countAudit(app);
    // The first patch is written, the second takes another record's client_ref: all rolled back.
    await expect(store.updateMany(app, 'Participant', [{ id: a.id, phone: '1' }, { id: b.id, client_ref: 'ref-a' }])).rejects.toMatchObject({ kind: 'conflict' });
    // An unknown id after a written patch: 404, nothing kept.
    await expect(store.updateMany(app, 'Participant', [{ id: a.id, phone: '2' }, { id: 'missing', phone: '3' }])).rejects.toMatchObject({ kind: 'not_found' });
    expect(await store.countAudit(app)).toBe(before);
    expect((await store.get(app, 'Participant', a.id))?.phone).toBeUndefined();
    expect((await chainOf(app))?.broken).toBeNull();
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the audit table', async () => {
    const app = newApp();
    await store.create(app, 'Site', { site_name: 'North' }, system);
    await expect(sql.query(`UPDATE audit_events SET data = data || '{"actor_email":"someone@else"}' WHERE app = $1`, [app])).rejects.toThrow(/append-only/);
    await expect(sql.query(`DELETE FROM audit_events WHERE app = $1`, [app])).rejects.toThrow(/append-only/);
    await expect(sql.query(`TRUNCATE audit_events`)).rejects.toThrow(/append-only/);
    await expect(sql.query(`DELETE FROM audit_heads WHERE app = $1`, [app])).rejects.toThrow(/append-only/);
    expect(await store.countAudit(app)).toBe(1);
  });

  /** Three participants' creates and an update: events 1–4. */
  async function fourEvents(app: string): Promise<EntityRecord[]> {
    const rows = await store.createMany(app, 'Participant', [1, 2, 3].map((i) => ({ first_name: `P${i}`, last_name: 'X' })), system);
    await store.update(app, 'Participant', rows[0].id, { phone: '555' });
    return events(app);
  }
  const asSuperuser = async (statements: string[], params: unknown[][]) => {
    await sql.transaction(async (tx) => {
      await tx.query('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change');
      for (const [i, s] of statements.entries()) await tx.query(s, params[i]);
      await tx.query('ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change');
    });
  };

  it('the chain shows an UPDATE made around the application', async () => {
    const app = newApp();
    const list = await fourEvents(app);
    await asSuperuser([`UPDATE audit_events SET data = jsonb_set(data, '{actor_email}', '"nobody@example.org"') WHERE app = $1 AND seq = 2`], [[app]]);
    const report = await chainOf(app);
    expect(report?.broken).toMatchObject({ seq: 2, id: list[1].id, expected: expect.any(String), found: list[1].hash });
    expect(report?.broken?.problem).toMatch(/does not match its hash/);
    expect(report?.events).toBe(1);
  });

  it('the chain shows a DELETE made around the application', async () => {
    const app = newApp();
    const list = await fourEvents(app);
    await asSuperuser([`DELETE FROM audit_events WHERE app = $1 AND seq = 3`], [[app]]);
    expect((await chainOf(app))?.broken).toMatchObject({ seq: 4, id: list[3].id, expected: 'seq 3', found: 'seq 4' });
    // The last event gone: the head still names it.
    const app2 = newApp();
    await fourEvents(app2);
    await asSuperuser([`DELETE FROM audit_events WHERE app = $1 AND seq = 4`], [[app2]]);
    expect((await chainOf(app2))?.broken?.problem).toMatch(/last events are missing/);
  });

  it('the chain shows an event inserted in the middle, even one hashed correctly after its predecessor', async () => {
    const app = newApp();
    const list = await fourEvents(app);
    // Make room at seq 3 (move 3 and 4 up), then insert a forged event chained after event 2.
    await asSuperuser(
      [
        // ids move aside too: the unique (app, id) index is checked row by row, so renumbering 3 → 4
        // while 4 still holds its id would collide whenever PostgreSQL visits 3 first.
        `UPDATE audit_events SET seq = -seq, id = 'moving-' || id WHERE app = $1 AND seq >= 3`,
        `UPDATE audit_events SET seq = -seq + 1, id = lpad(to_hex(-seq + 1), 24, '0') WHERE app = $1 AND seq < 0`,
        `INSERT INTO audit_events (app, seq, id, created_date, data, prev_hash, hash)
         SELECT app, 3, forged->>'id', created_date, forged, hash, sha256(hash || convert_to(app || E'\\n' || forged::text, 'UTF8'))
           FROM (SELECT *, data || jsonb_build_object('action', 'delete', 'seq', 3, 'id', lpad(to_hex(3), 24, '0')) AS forged
                   FROM audit_events WHERE app = $1 AND seq = 2) AS e`,
      ],
      [[app], [app], [app]],
    );
    const report = await chainOf(app);
    expect(report?.broken).toMatchObject({ seq: 4, id: '000000000000000000000004', found: list[2].prev_hash });
    expect(report?.events).toBe(3);
  });

  it('chains concurrent writers in order: every seq once, every link intact', async () => {
    const app = newApp();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0
          ? store.createMany(app, 'Participant', [{ first_name: `C${i}`, last_name: 'a' }, { first_name: `C${i}`, last_name: 'b' }], system)
          : store.create(app, i % 2 ? 'Site' : 'Program', { site_name: `S${i}`, program_name: `P${i}` }, system),
      ),
    );
    const list = await events(app);
    expect(list.map((e) => e.seq)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(await chainOf(app)).toMatchObject({ events: 16, broken: null, head: list[15].hash });
  });

  it('answers the list language: filters, sort, paging and fields', async () => {
    const app = newApp();
    await fourEvents(app);
    await store.appendAudit(app, [{ action: 'sign_in', actor_id: 'u1', actor_email: 'ana@example.org', address: '1.2.3.4' }]);
    expect((await store.listAudit(app, { q: { action: 'sign_in' } })).map((e) => e.actor_email)).toEqual(['ana@example.org']);
    expect(await store.countAudit(app, { entity: 'Participant', action: { $in: ['create', 'update'] } })).toBe(4);
    const newest = await store.listAudit(app, { sort: '-created_date', limit: 2, fields: ['action', 'seq'] });
    expect(newest).toEqual([{ id: '000000000000000000000005', action: 'sign_in', seq: 5 }, { id: '000000000000000000000004', action: 'update', seq: 4 }]);
    expect((await store.listAudit(app, { sort: '-created_date', skip: 4 })).map((e) => e.seq)).toEqual([1]);
    expect(await store.getAudit(app, '000000000000000000000005')).toMatchObject({ action: 'sign_in', outcome: 'success', entity: null, changes: null });
  });
});
