import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { PassageDB } from '../../../src/data/db';
import { open, openJson, placeOf, seal, sealJson, sealLegacy } from '../../../src/data/vault/cipher';
import { KeyRing } from '../../../src/data/vault/key-ring';
import { VaultLockedError } from '../../../src/data/vault/errors';
import {
  attachServerKey,
  createVault,
  MAX_ATTEMPTS,
  readVault,
  retryDelayMs,
  setPin,
  unlockWithPin,
  unlockWithServerKey,
} from '../../../src/data/vault/device-vault';
import { newDataKey } from '../../../src/data/vault/keys';

/** Issue #14.1–3: what IndexedDB itself holds, read without Passage's middleware. */
let n = 0;
const uniqueName = () => `vault-${process.pid}-${Date.now()}-${n++}`;

async function rawRows(name: string, table: string): Promise<Record<string, unknown>[]> {
  const raw = new Dexie(name);
  await raw.open(); // dynamic mode: the stores as they are on disk
  const rows = await raw.table(table).toArray();
  raw.close();
  return rows;
}

const ANA = {
  id: 'p1',
  first_name: 'Ana',
  last_name: 'Ruiz',
  cdcr_number: 'AB1234',
  phone: '555-0101',
  custody_status: 'in-custody',
  projected_release_date: '2027-03-01',
  enrollment_date: '2026-01-02',
  updated_date: '2026-01-03T00:00:00.000Z',
} as const;

/** Every string in a stored row, ciphertext bytes excluded. */
function clearText(rows: unknown[]): string {
  return JSON.stringify(rows, (_k, v: unknown) => (v instanceof Uint8Array ? '[sealed]' : v));
}

/** A cheap Argon2id for tests that try many PINs (the real parameters are tested in vault-crypto.test.ts). */
const FAST = { params: { kdf: 'argon2id', memory_kib: 64, iterations: 1, parallelism: 1 } } as const;

/** What WebCrypto's AES-GCM makes of a seal: `offset` is where its 12-byte IV starts (1 after the version byte, 0 for the legacy format). */
async function webCryptoOpen(key: Uint8Array, blob: Uint8Array, place?: Uint8Array, offset = 1): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', new Uint8Array(key), 'AES-GCM', false, ['decrypt']);
  const iv = blob.slice(offset, offset + 12);
  const params = place ? { name: 'AES-GCM', iv, additionalData: new Uint8Array(place) } : { name: 'AES-GCM', iv };
  return new Uint8Array(await crypto.subtle.decrypt(params, cryptoKey, blob.slice(offset + 12)));
}

describe('record sealing', () => {
  it('is standard AES-256-GCM: WebCrypto opens what the middleware sealed', async () => {
    const key = newDataKey();
    const place = placeOf('participants', 'p1');
    const blob = sealJson(key, { first_name: 'Ana' }, place);
    // [format byte 2][IV][ciphertext + tag], the place as additional data (issue #21.5).
    expect(blob[0]).toBe(2);
    expect(new TextDecoder().decode(place)).toBe('["participants","p1",2]');
    expect(JSON.parse(new TextDecoder().decode(await webCryptoOpen(key, blob, place)))).toEqual({ first_name: 'Ana' });
    // A fresh IV per record: the same value never seals to the same bytes.
    expect(sealJson(key, 'x', place)).not.toEqual(sealJson(key, 'x', place));
    expect(() => openJson(newDataKey(), blob, place)).toThrow();
    expect(() => openJson(key, blob, placeOf('participants', 'p2'))).toThrow();
  });

  it('seals of every length open with WebCrypto, and WebCrypto’s seals open here, with and without a place', async () => {
    // The cipher keeps each key's round keys and GHASH table between records (cipher.ts): every
    // partial last block, both ways, and the legacy format (no AAD) must still be AES-256-GCM.
    const key = newDataKey();
    const cryptoKey = await crypto.subtle.importKey('raw', new Uint8Array(key), 'AES-GCM', false, ['encrypt']);
    for (const length of [0, 1, 15, 16, 17, 31, 32, 33, 100, 255, 256, 1000, 4099]) {
      const plaintext = crypto.getRandomValues(new Uint8Array(length));
      const place = placeOf('participants', `p${length}`);
      const blob = seal(key, plaintext, place);
      expect(await webCryptoOpen(key, blob, place), `${length} bytes sealed here`).toEqual(plaintext);

      const iv = crypto.getRandomValues(new Uint8Array(12));
      const theirs = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new Uint8Array(place) }, cryptoKey, plaintext));
      expect(open(key, Uint8Array.of(2, ...iv, ...theirs), place, { legacy: false }), `${length} bytes sealed by WebCrypto`).toEqual(plaintext);
      const tampered = Uint8Array.of(2, ...iv, ...theirs);
      tampered[tampered.length - 1] ^= 1;
      expect(() => open(key, tampered, place, { legacy: false })).toThrow();

      const legacy = sealLegacy(key, plaintext);
      expect(await webCryptoOpen(key, legacy, undefined, 0), `${length} bytes, legacy`).toEqual(plaintext);
    }
  });

  it('Lock forgets what the cipher worked out from the key: a buffer given new bytes seals with them', async () => {
    const key = newDataKey();
    const ring = new KeyRing(key);
    const place = placeOf('participants', 'p1');
    expect(open(key, seal(key, Uint8Array.of(1, 2, 3), place), place)).toEqual(Uint8Array.of(1, 2, 3));
    ring.clear();
    expect(key.every((b) => b === 0)).toBe(true);
    // Same buffer, new bytes: a cipher still holding the old key's round keys would seal with those.
    const fresh = newDataKey();
    key.set(fresh);
    expect(await webCryptoOpen(fresh, seal(key, Uint8Array.of(4, 5, 6), place), place)).toEqual(Uint8Array.of(4, 5, 6));
  });

  it('a key replaced in the ring leaves nothing worked out from it behind', async () => {
    const first = newDataKey();
    const ring = new KeyRing(first);
    const place = placeOf('participants', 'p1');
    seal(first, Uint8Array.of(1), place);
    ring.set(newDataKey());
    // The replaced buffer given new bytes seals with them, not with round keys kept from before.
    const fresh = newDataKey();
    first.set(fresh);
    expect(await webCryptoOpen(fresh, seal(first, Uint8Array.of(7, 8), place), place)).toEqual(Uint8Array.of(7, 8));
  });

  it('stores personal fields sealed and indexed fields clear; Passage reads plain rows', async () => {
    const name = uniqueName();
    const db = new PassageDB(name);
    await db.participants.put({ ...ANA });
    await db.outbox.add({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '555-0101' }, base_values: { phone: '555-0000' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'u1', created_at: 1 });
    await db.conflicts.add({ entity: 'Participant', record_id: 'p1', field: 'last_name', local_value: 'Ruiz', server_value: 'Ruiz-Lopez', server_updated_date: null, detected_at: 1, status: 'open', kind: 'field' });
    await db.meta.put({ key: 'currentUser', value: { id: 'u1', email: 'coach@example.org', full_name: 'Casey Coach' } });

    const stored = [
      ...(await rawRows(name, 'participants')),
      ...(await rawRows(name, 'outbox')),
      ...(await rawRows(name, 'conflicts')),
      ...(await rawRows(name, 'meta')),
    ];
    const text = clearText(stored);
    for (const secret of ['Ana', 'Ruiz', 'AB1234', '555-01', 'coach@example.org', 'Casey']) expect(text).not.toContain(secret);
    expect(text).toContain('in-custody');
    expect(text).toContain('2027-03-01');

    expect(await db.participants.get('p1')).toEqual(ANA);
    expect(await db.participants.where('custody_status').equals('in-custody').toArray()).toEqual([ANA]);
    expect(await db.participants.filter((p) => p.first_name === 'Ana').count()).toBe(1);
    await db.participants.update('p1', { phone: '555-0199' });
    expect((await db.participants.get('p1'))?.phone).toBe('555-0199');
    await db.participants.where('id').equals('p1').modify({ last_name: 'Ruiz-Lopez' });
    expect(await db.participants.get('p1')).toMatchObject({ first_name: 'Ana', last_name: 'Ruiz-Lopez', phone: '555-0199' });
    expect((await db.outbox.toArray())[0]).toMatchObject({ data: { phone: '555-0101' }, base_values: { phone: '555-0000' }, seq: 1 });
    expect((await db.meta.get('currentUser'))?.value).toMatchObject({ full_name: 'Casey Coach' });
    db.close();
  });

  it('a locked database counts and reads clear tables, but neither reads nor writes personal fields', async () => {
    const name = uniqueName();
    const first = new PassageDB(name);
    await first.participants.put({ ...ANA });
    await first.cohorts.put({ id: 'c1', code: 'C-1', program_id: 'pr', site_id: 's' } as never);
    first.close();

    const locked = new PassageDB(name, new KeyRing());
    expect(await locked.participants.count()).toBe(1);
    expect(await locked.cohorts.get('c1')).toMatchObject({ code: 'C-1' });
    await expect(locked.participants.get('p1')).rejects.toBeInstanceOf(VaultLockedError);
    await expect(locked.participants.put({ ...ANA, id: 'p2' })).rejects.toBeInstanceOf(VaultLockedError);
    expect(await locked.participants.count()).toBe(1);
    locked.close();

    // Another key (another user's, or a forged one) does not open the rows: they are left out.
    const other = new PassageDB(name);
    expect(await other.participants.get('p1')).toBeUndefined();
    expect(await other.participants.toArray()).toEqual([]);
    other.close();
  });
});

describe('the device vault', () => {
  it('a PIN set on this device opens its data after a restart (Argon2id, 64 MiB)', async () => {
    const name = uniqueName();
    const db = new PassageDB(name, new KeyRing());
    await createVault(db, 'u1');
    await db.participants.put({ ...ANA });
    await setPin(db, '48291537');
    const record = await readVault(db);
    expect(record?.pin).toMatchObject({ kdf: 'argon2id', memory_kib: 65_536, parallelism: 1 });
    expect(clearText([record])).not.toContain('48291537');
    db.close();

    const restarted = new PassageDB(name, new KeyRing());
    await expect(restarted.participants.get('p1')).rejects.toBeInstanceOf(VaultLockedError);
    expect(await unlockWithPin(restarted, '48291537', 0)).toEqual({ ok: true });
    expect(await restarted.participants.get('p1')).toEqual(ANA);
    restarted.close();
    // A hang guard, not a goal: two derivations at the shipped cost (14 passes over 64 MiB each)
    // took over 5 s in a whole `npm test` on a slower 2-core machine (one pass: 0.2 s there alone).
  }, 60_000);

  it('refuses a short, long or non-numeric PIN (the one rule, domain/pin-rule.ts)', async () => {
    const db = new PassageDB(uniqueName(), new KeyRing());
    await createVault(db, 'u1', { pin_min_length: 6, idle_lock_minutes: 15 });
    await expect(setPin(db, '12345', FAST)).rejects.toThrow('The PIN must be at least 6 digits.');
    await expect(setPin(db, '1234567890123', FAST)).rejects.toThrow('The PIN must be at most 12 digits.');
    await expect(setPin(db, 'abcdef', FAST)).rejects.toThrow('The PIN must be digits only.');
    await setPin(db, '123456', FAST);
    db.close();
  });

  it('wrong PINs: 5 free tries, then a growing wait, and the 10th destroys the PIN wrapping, not the data (issue #21.7)', async () => {
    const name = uniqueName();
    const db = new PassageDB(name, new KeyRing());
    await createVault(db, 'u1');
    await db.participants.put({ ...ANA });
    await setPin(db, '11111111', FAST);
    db.keys.clear();

    let now = 1_000_000;
    for (let i = 1; i <= 4; i++) expect(await unlockWithPin(db, '99999999', now, FAST)).toEqual({ ok: false, reason: 'wrong', attemptsLeft: MAX_ATTEMPTS - i, retryAt: null });
    expect(await unlockWithPin(db, '99999999', now, FAST)).toEqual({ ok: false, reason: 'wrong', attemptsLeft: 5, retryAt: now + 30_000 });
    // Even the right PIN waits: the delay is not a hint.
    expect(await unlockWithPin(db, '11111111', now + 1000, FAST)).toEqual({ ok: false, reason: 'wait', retryAt: now + 30_000 });
    expect(retryDelayMs(6)).toBe(60_000);
    for (let i = 6; i <= 9; i++) {
      now = (await readVault(db))!.retry_at!;
      const result = await unlockWithPin(db, '99999999', now, FAST);
      expect(result).toMatchObject({ ok: false, reason: 'wrong', attemptsLeft: MAX_ATTEMPTS - i, retryAt: now + retryDelayMs(i) });
    }
    now = (await readVault(db))!.retry_at!;
    expect(await unlockWithPin(db, '99999999', now, FAST)).toEqual({ ok: false, reason: 'pin-destroyed' });
    expect(await unlockWithPin(db, '11111111', now + 1, FAST)).toEqual({ ok: false, reason: 'pin-destroyed' });
    expect(await db.participants.count()).toBe(1);
    expect(await readVault(db)).toMatchObject({ pin: null, pin_destroyed: true });
    db.close();
  });

  it('the right PIN resets the count', async () => {
    const db = new PassageDB(uniqueName(), new KeyRing());
    await createVault(db, 'u1');
    await setPin(db, '11111111', FAST);
    db.keys.clear();
    await unlockWithPin(db, '00000000', 0, FAST);
    await unlockWithPin(db, '00000000', 0, FAST);
    expect(await unlockWithPin(db, '11111111', 0, FAST)).toEqual({ ok: true });
    expect((await readVault(db))?.failed_attempts).toBe(0);
    db.close();
  });

  it('a forgotten PIN: the server key of a signed-in user opens the data, and a new PIN can be set', async () => {
    const name = uniqueName();
    const serverKey = newDataKey();
    const db = new PassageDB(name, new KeyRing());
    await createVault(db, 'u1');
    await attachServerKey(db, serverKey);
    await setPin(db, '11111111', FAST);
    await db.participants.put({ ...ANA });
    db.close();

    const restarted = new PassageDB(name, new KeyRing());
    await unlockWithPin(restarted, '22222222', 0, FAST);
    expect(await unlockWithServerKey(restarted, [newDataKey()])).toBe(false);
    expect(await unlockWithServerKey(restarted, [newDataKey(), serverKey])).toBe(true);
    expect(await restarted.participants.get('p1')).toEqual(ANA);
    expect((await readVault(restarted))?.failed_attempts).toBe(0);
    await setPin(restarted, '33333333', FAST);
    restarted.keys.clear();
    expect(await unlockWithPin(restarted, '33333333', 0, FAST)).toEqual({ ok: true });
    restarted.close();
  });
});
