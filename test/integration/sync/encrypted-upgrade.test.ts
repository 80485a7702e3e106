import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassageDB } from '../../../src/data/db';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { KeyRing } from '../../../src/data/vault/key-ring';
import { createVault, readVault, sealExistingRows, setPin, unlockWithPin } from '../../../src/data/vault/device-vault';
import { makeDevice } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { startSyncServer, type SyncServer } from './sync-server';
import { SHIPPED_V2 } from '../../support/shipped-schemas';

/**
 * Issue #14.1, S13: a tablet that ran the version before encryption (schema version 2, every field
 * plain) with changes still waiting. The new version opens it, seals its rows once a key exists,
 * and the waiting changes still reach the server exactly once.
 */

let server: SyncServer;
beforeAll(async () => {
  server = await startSyncServer();
});
afterAll(async () => {
  await server.close();
});

async function rawText(name: string): Promise<string> {
  const raw = new Dexie(name);
  await raw.open();
  const all: Record<string, unknown[]> = {};
  for (const t of raw.tables) all[t.name] = await t.toArray();
  raw.close();
  return JSON.stringify(all, (_k, v: unknown) => (v instanceof Uint8Array ? '[sealed]' : v));
}

describe('upgrade of an unencrypted mirror with pending ops (S13)', () => {
  it('seals every personal field after the first unlock, and the queued create and edit reach the server once', async () => {
    const coach = server.coach;
    const existing = await server.client('admin').entities('Participant').create({ first_name: 'Rosa', last_name: 'Plainfield', phone: '555-0100' });
    const name = `upgrade-enc-${process.pid}-${Date.now()}`;

    const old = new Dexie(name);
    old.version(2).stores(SHIPPED_V2);
    await old.open();
    await old.table('participants').bulkPut([
      { ...existing },
      { id: 'local-1', client_ref: 'ref-upgrade-1', first_name: 'Tomas', last_name: 'Queuedson', cdcr_number: 'QX9911' },
    ]);
    await old.table('outbox').bulkAdd([
      { entity: 'Participant', record_id: 'local-1', kind: 'create', client_ref: 'ref-upgrade-1', data: { first_name: 'Tomas', last_name: 'Queuedson', cdcr_number: 'QX9911', client_ref: 'ref-upgrade-1' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: coach.id, created_at: 1 },
      { entity: 'Participant', record_id: existing.id, kind: 'update', data: { phone: '555-0199' }, base_updated_date: existing.updated_date, base_values: { phone: '555-0100' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: coach.id, created_at: 2 },
    ]);
    await old.table('meta').put({ key: 'currentUser', value: { id: coach.id, email: coach.email, full_name: 'Casey Upgrade' } });
    old.close();
    expect(await rawText(name)).toContain('Queuedson');

    // The new version opens it locked; the plain rows still read (nothing is lost before a PIN).
    const db = new PassageDB(name, new KeyRing());
    expect(await db.participants.get('local-1')).toMatchObject({ last_name: 'Queuedson' });
    expect(db.verno).toBe(5);

    // First start of the new version: a vault, a PIN, and the rows sealed in place.
    await createVault(db, coach.id);
    await setPin(db, '13579024', { params: { kdf: 'argon2id', memory_kib: 64, iterations: 1, parallelism: 1 } });
    expect(await sealExistingRows(db)).toBeGreaterThan(4);
    const sealed = await rawText(name);
    for (const secret of ['Queuedson', 'QX9911', 'Plainfield', '555-01', 'Casey Upgrade']) expect(sealed).not.toContain(secret);
    expect(await sealExistingRows(db)).toBe(0); // once only

    // A restart: the PIN opens it, and the queued changes go out.
    db.keys.clear();
    db.close();
    const reopened = new PassageDB(name, new KeyRing());
    expect(await unlockWithPin(reopened, '13579024', Date.now())).toEqual({ ok: true });
    expect((await readVault(reopened))?.user_id).toBe(coach.id);
    const ops = await reopened.outbox.orderBy('seq').toArray();
    expect(ops.map((o) => [o.kind, o.state, o.data])).toEqual([
      ['create', 'pending', { first_name: 'Tomas', last_name: 'Queuedson', cdcr_number: 'QX9911', client_ref: 'ref-upgrade-1' }],
      ['update', 'pending', { phone: '555-0199' }],
    ]);

    const { engine, settle } = makeDevice({ db: reopened, userId: coach.id, clock: new FakeClock(Date.now()), transport: createPlatformTransport(server.client('coach'), coach.id) });
    await engine.start();
    await settle();
    await engine.stop();

    expect(await reopened.outbox.count()).toBe(0);
    const rows = await server.rows('Participant');
    expect(rows.filter((r) => r.client_ref === 'ref-upgrade-1')).toEqual([expect.objectContaining({ last_name: 'Queuedson', cdcr_number: 'QX9911' })]);
    expect(rows.find((r) => r.id === existing.id)?.phone).toBe('555-0199');
    // What the pull brought back is sealed too.
    expect(await rawText(name)).not.toContain('Queuedson');
    reopened.close();
  });
});
