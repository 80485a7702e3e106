import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PassageDB } from '../../../src/data/db';
import { KeyRing } from '../../../src/data/vault/key-ring';
import { placeOf, sealLegacy } from '../../../src/data/vault/cipher';
import {
  ARGON2_PARAMS,
  E2E_PIN_COST_GLOBAL,
  fromBase64,
  newWrapParams,
  needsRewrap,
  newDataKey,
  rewrapWithPin,
  toBase64,
  unwrapWithPin,
  wrapWithPin,
  type Argon2Params,
  type PinWrappedKey,
} from '../../../src/data/vault/keys';
import { PLAIN_ROWS_KEY, SEAL_FORMAT, SEAL_FORMAT_KEY, SEALED_FIELD, SEALED_META_KEYS } from '../../../src/data/vault/policy';

/**
 * Issue #21.4–5: what a stolen copy costs to guess (Argon2id, the optional PRF factor) and
 * ciphertext bound to its place (AAD; sealed tables refuse rows without a seal).
 */

/** Small Argon2id for the tests that do not measure cost (the real parameters are tested once). */
const CHEAP: Argon2Params = { kdf: 'argon2id', memory_kib: 64, iterations: 1, parallelism: 1 };

let n = 0;
const uniqueName = () => `vault-crypto-${process.pid}-${Date.now()}-${n++}`;
const open: PassageDB[] = [];
function passage(name: string, keys?: KeyRing): PassageDB {
  const db = keys ? new PassageDB(name, keys) : new PassageDB(name);
  open.push(db);
  return db;
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  vi.restoreAllMocks();
});

/** The database as IndexedDB holds it, without Passage's middleware. */
async function raw<T>(name: string, fn: (db: Dexie) => Promise<T>): Promise<T> {
  const db = new Dexie(name);
  await db.open(); // dynamic mode: the stores as they are on disk
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

const ANA = {
  id: 'p1',
  first_name: 'Ana',
  last_name: 'Ruiz',
  cdcr_number: 'AB1234',
  custody_status: 'in-custody',
  projected_release_date: '2027-03-01',
  enrollment_date: '2026-01-02',
  updated_date: '2026-01-03T00:00:00.000Z',
} as const;
const BEN = { ...ANA, id: 'p2', first_name: 'Ben', last_name: 'Okafor', cdcr_number: 'CD5678' };

const op = (recordId: string, data: Record<string, unknown>) => ({
  entity: 'Participant' as const,
  record_id: recordId,
  kind: 'update' as const,
  data,
  state: 'pending' as const,
  attempts: 0,
  next_attempt_at: 0,
  user_id: 'u1',
  created_at: 1,
});

describe('PIN wrapping with Argon2id', () => {
  it('round trip; a wrong PIN gets null; the record names its derivation', async () => {
    const key = newDataKey();
    const wrapped = await wrapWithPin(key, '48291573', { params: CHEAP });
    expect(wrapped).toMatchObject({ kdf: 'argon2id', memory_kib: 64, iterations: 1, parallelism: 1 });
    expect(wrapped.salt).toHaveLength(16);
    expect(wrapped.prf).toBeUndefined();
    expect(await unwrapWithPin(wrapped, '48291573')).toEqual(key);
    expect(await unwrapWithPin(wrapped, '48291574')).toBeNull();
    // The stored parameters are the ones used: changing them breaks the wrapping, it cannot cheapen it.
    expect(await unwrapWithPin({ ...wrapped, iterations: 2 }, '48291573')).toBeNull();
  });

  it('at the real parameters (64 MiB, one lane): round trip, and needsRewrap says it is current', async () => {
    expect(ARGON2_PARAMS).toMatchObject({ kdf: 'argon2id', memory_kib: 65_536, parallelism: 1 });
    expect(ARGON2_PARAMS.iterations).toBeGreaterThanOrEqual(3);
    const key = newDataKey();
    const wrapped = await wrapWithPin(key, '48291573');
    expect(wrapped).toMatchObject({ ...ARGON2_PARAMS });
    expect(needsRewrap(wrapped)).toBe(false);
    expect(await unwrapWithPin(wrapped, '48291573')).toEqual(key);
  }, 30_000);

  it('outside an e2e build a page cannot ask for a cheaper PIN: new wrappings keep the real ones, and a 1-pass one is rewrapped', async () => {
    const global = globalThis as Record<string, unknown>;
    global[E2E_PIN_COST_GLOBAL] = { iterations: 1, memory_kib: 1024 };
    try {
      expect(import.meta.env.MODE).not.toBe('e2e');
      expect(newWrapParams()).toEqual(ARGON2_PARAMS);
      const light = await wrapWithPin(newDataKey(), '48291573', { params: { ...ARGON2_PARAMS, memory_kib: 64, iterations: 1 } });
      expect(needsRewrap(light)).toBe(true);
    } finally {
      delete global[E2E_PIN_COST_GLOBAL];
    }
  });

  it('a vault wrapped before issue #21 (PBKDF2-SHA-256 600,000, no kdf field) still opens, and needsRewrap says so', async () => {
    const key = newDataKey();
    const wrapped = await wrapWithPin(key, '135790', { params: { kdf: 'pbkdf2', iterations: 600_000 } });
    // Stored as the old code stored it: { salt, iterations, sealed }.
    const old = { salt: wrapped.salt, iterations: wrapped.iterations, sealed: wrapped.sealed } as PinWrappedKey;
    expect('kdf' in old).toBe(false);
    expect(await unwrapWithPin(old, '135790')).toEqual(key);
    expect(await unwrapWithPin(old, '135791')).toBeNull();
    expect(needsRewrap(old)).toBe(true);
    expect(needsRewrap(wrapped)).toBe(true);
    // Argon2id weaker than the target is outdated too.
    expect(needsRewrap(await wrapWithPin(key, '135790', { params: CHEAP }))).toBe(true);
    expect(needsRewrap(await wrapWithPin(key, '135790', { params: CHEAP }), CHEAP)).toBe(false);
    // The re-wrap: Argon2id, same data key.
    const again = await rewrapWithPin(old, key, '135790', undefined, CHEAP);
    expect(again.kdf).toBe('argon2id');
    expect(await unwrapWithPin(again, '135790')).toEqual(key);
  });
});

describe('the WebAuthn PRF factor', () => {
  const prfOutput = () => crypto.getRandomValues(new Uint8Array(32));
  const credentialId = 'cred-AbC_123-xyz';

  it('a wrapping with a PRF output opens only with the PIN and that output', async () => {
    const key = newDataKey();
    const output = prfOutput();
    const salt = crypto.getRandomValues(new Uint8Array(32));
    const wrapped = await wrapWithPin(key, '48291573', { params: CHEAP, prf: { output, credentialId, salt } });
    expect(wrapped.prf).toEqual({ credential_id: credentialId, salt: toBase64(salt) });
    expect(fromBase64(wrapped.prf!.salt)).toEqual(salt);
    // The output itself is stored nowhere in the record.
    const stored = JSON.stringify(wrapped, (_k, v: unknown) => (v instanceof Uint8Array ? Array.from(v).join(',') : v));
    expect(stored).not.toContain(Array.from(output).join(','));

    expect(await unwrapWithPin(wrapped, '48291573')).toBeNull(); // PIN alone
    expect(await unwrapWithPin(wrapped, '48291573', prfOutput())).toBeNull(); // another output
    expect(await unwrapWithPin(wrapped, '48291574', output)).toBeNull(); // wrong PIN, right output
    expect(await unwrapWithPin(wrapped, '48291573', output.subarray(0, 16))).toBeNull();
    // Stripping the binding from the record does not turn it into a PIN-only wrapping.
    const { prf: _drop, ...stripped } = wrapped;
    expect(await unwrapWithPin(stripped as PinWrappedKey, '48291573')).toBeNull();
    expect(await unwrapWithPin(wrapped, '48291573', output)).toEqual(key);
  });

  it('a PIN-only wrapping is not opened by adding a PRF output; a re-wrap keeps the credential', async () => {
    const key = newDataKey();
    const pinOnly = await wrapWithPin(key, '48291573', { params: CHEAP });
    expect(await unwrapWithPin(pinOnly, '48291573', prfOutput())).toBeNull();

    const output = prfOutput();
    const withPrf = await wrapWithPin(key, '48291573', { params: CHEAP, prf: { output, credentialId, salt: new Uint8Array(32).fill(7) } });
    await expect(rewrapWithPin(withPrf, key, '48291573')).rejects.toThrow('authenticator');
    const again = await rewrapWithPin(withPrf, key, '48291573', output, CHEAP);
    expect(again.prf).toEqual(withPrf.prf);
    expect(await unwrapWithPin(again, '48291573')).toBeNull();
    expect(await unwrapWithPin(again, '48291573', output)).toEqual(key);
  });
});

describe('ciphertext bound to its place (AAD)', () => {
  it("a participant's seal copied onto another participant, or into outcomes, does not open there", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    const db = passage(name);
    await db.participants.bulkPut([{ ...ANA }, { ...BEN }]);
    await db.outcomes.put({ id: 'o1', participant_id: 'p2', notes: 'job found' } as never);
    expect(await db.participants.get('p2')).toMatchObject({ first_name: 'Ben' });

    await raw(name, async (r) => {
      const anaSeal = (await r.table('participants').get('p1'))[SEALED_FIELD];
      await r.table('participants').update('p2', { [SEALED_FIELD]: anaSeal });
      await r.table('outcomes').update('o1', { [SEALED_FIELD]: anaSeal });
    });

    // Read through every path: get, bulkGet, a whole-table read, an index, a filter (cursor).
    expect(await db.participants.get('p2')).toBeUndefined();
    expect(await db.participants.bulkGet(['p1', 'p2'])).toEqual([ANA, undefined]);
    expect(await db.participants.toArray()).toEqual([ANA]);
    expect(await db.participants.where('custody_status').equals('in-custody').toArray()).toEqual([ANA]);
    expect(await db.participants.filter(() => true).toArray()).toEqual([ANA]);
    expect(await db.participants.orderBy('projected_release_date').toArray()).toEqual([ANA]);
    expect(await db.outcomes.get('o1')).toBeUndefined();
    expect(await db.outcomes.where('participant_id').equals('p2').toArray()).toEqual([]);
    // Nothing of Ana shows up under Ben's id.
    expect(JSON.stringify(await db.participants.toArray())).not.toContain('"p2"');
    expect(warn).toHaveBeenCalled();
    expect(String(warn.mock.calls[0][0])).not.toContain('Ana');
  });

  it('a queued op sealed for its seq does not open under another seq', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    const db = passage(name);
    const first = await db.outbox.add(op('p1', { phone: '555-0101' }));
    const second = await db.outbox.add(op('p2', { phone: '555-0202' }));
    await db.outbox.bulkAdd([op('p3', { phone: '3' }), op('p4', { phone: '4' })]);
    expect((await db.outbox.toArray()).map((o) => [o.seq, o.record_id, o.data])).toEqual([
      [first, 'p1', { phone: '555-0101' }],
      [second, 'p2', { phone: '555-0202' }],
      [3, 'p3', { phone: '3' }],
      [4, 'p4', { phone: '4' }],
    ]);
    await raw(name, async (r) => {
      const seal = (await r.table('outbox').get(first))[SEALED_FIELD];
      await r.table('outbox').update(second, { [SEALED_FIELD]: seal });
    });
    expect(await db.outbox.get(second)).toBeUndefined();
    expect((await db.outbox.where('state').equals('pending').toArray()).map((o) => o.seq)).toEqual([first, 3, 4]);
  });

  it('a seal written before issue #21 (no AAD) still opens, and is sealed with its place when written again', async () => {
    const name = uniqueName();
    const db = passage(name);
    const key = db.keys.key()!;
    await db.participants.put({ ...ANA });
    await raw(name, async (r) => {
      const { first_name, last_name, cdcr_number } = ANA;
      await r.table('participants').update('p1', { [SEALED_FIELD]: sealLegacy(key, new TextEncoder().encode(JSON.stringify({ first_name, last_name, cdcr_number }))) });
      await r.table('meta').put({ key: 'currentUser', [SEALED_FIELD]: sealLegacy(key, new TextEncoder().encode(JSON.stringify({ id: 'u1', full_name: 'Casey' }))) });
    });
    const reopened = passage(name, new KeyRing(new Uint8Array(key)));
    expect(await reopened.participants.get('p1')).toEqual(ANA);
    expect((await reopened.meta.get('currentUser'))?.value).toEqual({ id: 'u1', full_name: 'Casey' });

    await reopened.participants.update('p1', { last_name: 'Ruiz-Lopez' });
    const stored = await raw(name, (r) => r.table('participants').get('p1'));
    expect((stored[SEALED_FIELD] as Uint8Array)[0]).toBe(2);
    expect(await reopened.participants.get('p1')).toMatchObject({ last_name: 'Ruiz-Lopez' });
  });

  it('once every row carries its place (meta sealFormat), a seal without AAD is refused', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    const db = passage(name);
    const key = db.keys.key()!;
    await db.participants.bulkPut([{ ...ANA }, { ...BEN }]);
    await db.meta.put({ key: SEAL_FORMAT_KEY, value: SEAL_FORMAT });
    await raw(name, (r) => r.table('participants').update('p2', { [SEALED_FIELD]: sealLegacy(key, new TextEncoder().encode('{"first_name":"Planted"}')) }));
    expect(await db.participants.get('p2')).toBeUndefined();
    // Read from meta at the next open too.
    const reopened = passage(name, new KeyRing(new Uint8Array(key)));
    expect(await reopened.participants.toArray()).toEqual([ANA]);
  });
});

describe('a sealed table refuses rows without a seal', () => {
  it('a planted plain participant and a planted plain queued op are not read as real', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    const db = passage(name);
    await db.participants.put({ ...ANA });
    const real = await db.outbox.add(op('p1', { phone: '555-0101' }));
    await raw(name, async (r) => {
      await r.table('participants').put({ ...BEN, id: 'p9' });
      // A delete op of a real participant, and one with `_enc: null` (a row "without personal fields").
      await r.table('outbox').add({ ...op('p1', {}), kind: 'delete' });
      await r.table('outbox').add({ ...op('p1', { last_name: 'Changed' }), [SEALED_FIELD]: null });
      await r.table('conflicts').add({ entity: 'Participant', record_id: 'p1', field: 'x', status: 'open', kind: 'field', detected_at: 1 });
      await r.table('outcomes').put({ id: 'o9', participant_id: 'p1', notes: 'planted' });
      await r.table('meta').put({ key: 'currentUser', value: { id: 'attacker' } });
      await r.table('meta').put({ key: 'session', value: { token: 'planted' } });
    });
    expect(await db.participants.get('p9')).toBeUndefined();
    expect(await db.participants.toArray()).toEqual([ANA]);
    expect(await db.participants.where('custody_status').equals('in-custody').toArray()).toEqual([ANA]);
    const ops = await db.outbox.toArray();
    expect(ops.map((o) => o.seq)).toEqual([real]);
    expect((await db.outbox.where('[user_id+state]').equals(['u1', 'pending']).toArray()).map((o) => o.seq)).toEqual([real]);
    expect(await db.outbox.orderBy('seq').filter(() => true).toArray()).toHaveLength(1);
    expect(await db.conflicts.toArray()).toEqual([]);
    expect(await db.outcomes.get('o9')).toBeUndefined();
    expect(await db.meta.get('currentUser')).toBeUndefined();
    expect(await db.meta.get('session')).toBeUndefined();
    expect(SEALED_META_KEYS.has('session')).toBe(true);
    expect(warn).toHaveBeenCalled();
    // After a restart too (the marker state is read at open).
    const reopened = passage(name, new KeyRing(new Uint8Array(db.keys.key()!)));
    expect((await reopened.outbox.toArray()).map((o) => o.seq)).toEqual([real]);
  });

  it('once seen, a planted row is left out of key reads too, so a modify over its index does not trip on it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    const db = passage(name);
    const real = await db.outbox.add(op('p1', { phone: '555-0101' }));
    const planted = await raw(name, (r) => r.table('outbox').add(op('p1', { phone: 'planted' })));
    expect((await db.outbox.where('state').equals('pending').toArray()).map((o) => o.seq)).toEqual([real]);
    expect(await db.outbox.where('record_id').equals('p1').primaryKeys()).toEqual([real]);
    expect(await db.outbox.toCollection().primaryKeys()).toEqual([real]);
    const changed = await db.outbox.where('record_id').equals('p1').modify((o) => {
      o.attempts = 3;
    });
    expect(changed).toBe(1);
    expect((await db.outbox.get(real))?.attempts).toBe(3);
    // Written here again (a valid seal at that key), the key is real again.
    await db.outbox.put({ ...op('p1', { phone: 'mine' }), seq: planted as number });
    expect((await db.outbox.get(planted as number))?.data).toEqual({ phone: 'mine' });
    expect(await db.outbox.toCollection().primaryKeys()).toEqual([real, planted]);
  });

  it('while a version 2 device still has plain rows (the plainRows marker), they read as they are; once it is gone, no longer', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    const db = passage(name);
    await db.participants.put({ ...ANA });
    await raw(name, async (r) => {
      await r.table('participants').put({ ...BEN });
      await r.table('outbox').add(op('p2', { phone: '555-0202' }));
      await r.table('meta').put({ key: PLAIN_ROWS_KEY, value: true });
    });
    const migrating = passage(name, new KeyRing(new Uint8Array(db.keys.key()!)));
    expect(await migrating.participants.get('p2')).toEqual(BEN);
    expect(await migrating.outbox.count()).toBe(1);
    expect((await migrating.outbox.toArray())[0].data).toEqual({ phone: '555-0202' });
    // The rewrite (device-vault's sealExistingRows): read plain, written sealed, marker deleted.
    await migrating.participants.put((await migrating.participants.get('p2'))!);
    await migrating.meta.delete(PLAIN_ROWS_KEY);
    expect(await migrating.participants.get('p2')).toEqual(BEN);
    expect(await migrating.outbox.toArray()).toEqual([]); // not rewritten: now refused
  });

  it('a locked database still refuses to read sealed rows, and a planted plain row is not a way around it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    const db = passage(name);
    await db.participants.put({ ...ANA });
    await raw(name, (r) => r.table('participants').put({ ...BEN }));
    const locked = passage(name, new KeyRing());
    expect(await locked.participants.get('p2')).toBeUndefined();
    await expect(locked.participants.get('p1')).rejects.toThrow('locked');
  });
});

describe('seal format', () => {
  it('the place is the table, the primary key as a string and the seal version', () => {
    expect(new TextDecoder().decode(placeOf('outbox', 12))).toBe('["outbox","12",2]');
    expect(placeOf('outbox', 12)).toEqual(placeOf('outbox', '12'));
  });
});
