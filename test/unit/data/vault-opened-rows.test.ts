import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { opens } from './counted-cipher';
import { KeyRing } from '../../../src/data/vault/key-ring';
import { VaultLockedError } from '../../../src/data/vault/errors';
import { newDataKey } from '../../../src/data/vault/keys';
import { sealingMiddleware } from '../../../src/data/vault/middleware';
import { OpenedRows } from '../../../src/data/vault/opened-rows';

// Every record opened (unsealed) is counted.
vi.mock('../../../src/data/vault/cipher', async (importOriginal) => (await import('./counted-cipher')).countingCipher(importOriginal));

/**
 * The opened-row cache of the sealing layer: a list page re-reading 10,000 sealed participants
 * must not pay AES-GCM for each again, and must never show a stale, changed or locked row.
 */
let n = 0;
let ring: KeyRing;
let opened: OpenedRows;
let db: Dexie;
let name: string;

function openDb(dbName: string, keys: KeyRing, cache: OpenedRows): Dexie {
  const d = new Dexie(dbName);
  d.use(sealingMiddleware(keys, cache));
  d.version(1).stores({ participants: 'id, custody_status', outcomes: 'id, participant_id', conflicts: '++id' });
  return d;
}

const people = Array.from({ length: 50 }, (_, i) => ({
  id: `p${i}`,
  first_name: `Name${i}`,
  last_name: 'Ruiz',
  phone: `555-01${String(i).padStart(2, '0')}`,
  custody_status: 'in-custody',
  updated_date: '2026-01-03T00:00:00.000Z',
}));

beforeEach(async () => {
  name = `opened-${process.pid}-${Date.now()}-${n++}`;
  ring = new KeyRing(newDataKey());
  opened = new OpenedRows();
  db = openDb(name, ring, opened);
  await db.table('participants').bulkPut(people);
  opens.count = 0;
});

afterEach(async () => {
  db.close();
  await Dexie.delete(name);
});

describe('opened rows (a list read again does not open again)', () => {
  it('opens each row once while nothing changed (rows written elsewhere), and every read gets the same plain rows', async () => {
    // Written through another connection (another tab): this one has never seen them in the clear.
    const other = openDb(name, ring, new OpenedRows());
    await other.table('participants').bulkPut(people.map((p) => ({ ...p, last_name: 'Soto' })));
    other.close();
    opens.count = 0;
    const byId = people.map((p) => ({ ...p, last_name: 'Soto' })).sort((a, b) => a.id.localeCompare(b.id));
    const first = await db.table('participants').toArray();
    expect(first).toEqual(byId);
    expect(opens.count).toBe(50);
    const again = await db.table('participants').orderBy('id').toArray();
    const one = await db.table('participants').get('p7');
    const some = await db.table('participants').where('custody_status').equals('in-custody').limit(5).toArray();
    expect(opens.count).toBe(50);
    expect(again).toEqual(byId);
    expect(one).toEqual(byId.find((p) => p.id === 'p7'));
    expect(some).toHaveLength(5);
  });

  it('rows this connection wrote read without opening them', async () => {
    // beforeEach wrote the 50 rows through this connection.
    expect(await db.table('participants').toArray()).toEqual([...people].sort((a, b) => a.id.localeCompare(b.id)));
    await db.table('participants').put({ ...people[5], phone: '555-7777' });
    expect((await db.table('participants').get('p5')).phone).toBe('555-7777');
    expect(opens.count).toBe(0);
  });

  it('a row rewritten below (another tab, a pull) reads its new value', async () => {
    await db.table('participants').toArray();
    // Another database connection on the same stores and key: this connection's cache never saw the write.
    const other = openDb(name, ring, new OpenedRows());
    await other.table('participants').put({ ...people[3], phone: '555-9999' });
    other.close();
    expect((await db.table('participants').get('p3')).phone).toBe('555-9999');
    const all = await db.table('participants').toArray();
    expect(all.find((p) => p.id === 'p3').phone).toBe('555-9999');
    expect(all.find((p) => p.id === 'p4').phone).toBe(people[4].phone);
  });

  it('a reader that changes a row it got does not change what the next reader sees', async () => {
    const row = await db.table('participants').get('p1');
    row.first_name = 'Changed';
    const list = await db.table('participants').toArray();
    list[2].phone = 'changed too';
    expect(await db.table('participants').get('p1')).toEqual(people[1]);
    expect(await db.table('participants').get('p2')).toEqual(people[2]);
  });

  it('keeps nothing once locked: reads are refused, and a new key starts empty', async () => {
    await db.table('participants').toArray();
    expect(opened.size).toBe(50);
    ring.clear();
    expect(opened.size).toBe(0);
    await expect(db.table('participants').get('p1')).rejects.toBeInstanceOf(VaultLockedError);
    await expect(db.table('participants').toArray()).rejects.toBeInstanceOf(VaultLockedError);
    expect(opened.size).toBe(0);
  });

  it('forgets deleted rows and a cleared table', async () => {
    await db.table('participants').toArray();
    await db.table('participants').delete('p0');
    expect(opened.size).toBe(49);
    expect(await db.table('participants').get('p0')).toBeUndefined();
    await db.table('participants').clear();
    expect(opened.size).toBe(0);
  });

  it('keeps only rows whose fields are plain values (a row with a list is opened on each read)', async () => {
    const other = openDb(name, ring, new OpenedRows());
    await other.table('participants').put({ ...people[9], aliases: ['Nine', 'N.'] });
    other.close();
    opens.count = 0;
    await db.table('participants').get('p9');
    await db.table('participants').get('p9');
    expect(opens.count).toBe(2);
    const p9 = await db.table('participants').get('p9');
    p9.aliases.push('changed');
    expect((await db.table('participants').get('p9')).aliases).toEqual(['Nine', 'N.']);
  });

  it('tables outside the cache (outcomes, read a participant at a time; conflicts) are opened on every read', async () => {
    await db.table('outcomes').put({ id: 'o1', participant_id: 'p1', note: 'plain', score: 3 });
    await db.table('conflicts').add({ entity: 'Participant', record_id: 'p1', field: 'phone', mine: '1', theirs: '2' });
    opens.count = 0;
    for (const t of ['outcomes', 'conflicts']) {
      await db.table(t).toArray();
      await db.table(t).toArray();
    }
    expect(opens.count).toBe(4);
    expect(opened.size).toBe(50);
  });
});
