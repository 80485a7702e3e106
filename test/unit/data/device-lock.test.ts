import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import { PassageDB } from '../../../src/data/db';
import { makeDevice } from '../../support/device';
import { KeyRing } from '../../../src/data/vault/key-ring';
import { MAX_ATTEMPTS, readVault, setPin, unlockWithPin } from '../../../src/data/vault/device-vault';
import type { Argon2Params } from '../../../src/data/vault/keys';
import { deviceLockInfo, lockDevice, openDeviceLock, unlockDevice } from '../../../src/data/device-lock';
import { getStoredToken, storeToken } from '../../../src/platform/token-store';
import type { PlatformClientLike } from '../../../src/data/platform-like';

/** Issues #14.2–3 and #21: which screen a start leads to, with a scripted server. */
let n = 0;
const b64 = (seed: number) => btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => (i * 7 + seed) & 255)));
/** Small Argon2id parameters: the real ones (64 MiB) are measured in the bench, not paid per test. */
const FAST: Argon2Params = { kdf: 'argon2id', memory_kib: 64, iterations: 1, parallelism: 1 };
const PIN = '24681357';

interface ServerScript {
  online?: boolean;
  /** What functions/deviceKey answers: keys rotate at every release, as the server's do. */
  refuse?: { status: number; code: string };
}

function device(name = `lock-${process.pid}-${Date.now()}-${n++}`, script: ServerScript = {}) {
  const db = new PassageDB(name, new KeyRing());
  const calls: { fn: string; params: unknown }[] = [];
  const state = { release: 0 };
  const client = {
    functions: {
      invoke: async (fn: string, params: unknown) => {
        calls.push({ fn, params });
        if (script.online === false) throw Object.assign(new Error('Failed to fetch'), { status: undefined });
        if (script.refuse) throw Object.assign(new Error('refused'), { status: script.refuse.status, code: script.refuse.code });
        if (fn !== 'deviceKey') return { data: { status: 'active' } };
        state.release++;
        const serverState = releases.get(name) ?? 0;
        releases.set(name, serverState + 1);
        return {
          data: { key: b64(serverState + 1), previous: serverState ? b64(serverState) : null, policy: { pin_min_length: 8, idle_lock_minutes: 10 } },
        };
      },
    },
  } as unknown as PlatformClientLike;
  const { data } = makeDevice({ db, client, userId: 'coach-1', now: () => Date.now() });
  return { data, db, name, calls };
}
/** The server's release count per device copy (keys rotate on each release). */
const releases = new Map<string, number>();

async function withPin(db: PassageDB) {
  await setPin(db, PIN, { params: FAST });
}

beforeEach(() => {
  storeToken(null);
});

describe('openDeviceLock', () => {
  it('first sign-in here: a vault with its own device id, sealed by that device’s server key; then Set a PIN', async () => {
    const { data, db, calls } = device();
    expect(await openDeviceLock(data, { userId: 'coach-1', fresh: true })).toBe('set-pin');
    const vault = await readVault(db);
    expect(vault?.device_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(calls).toEqual([{ fn: 'deviceKey', params: { device_id: vault?.device_id } }]);
    expect(db.keys.unlocked).toBe(true);
    expect(vault).toMatchObject({ user_id: 'coach-1', pin: null, policy: { pin_min_length: 8, idle_lock_minutes: 10 } });
    expect(vault?.server?.sealed).toBeInstanceOf(Uint8Array);
  });

  it('every later start is locked, online too, and asks the server for nothing (issue #21.3)', async () => {
    const first = device();
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await withPin(first.db);
    await first.db.participants.put({ id: 'p1', first_name: 'Ana', last_name: 'Ruiz' });
    first.db.close();

    // A reload with a token in memory (a plain platform's ?access_token=): still the PIN.
    const d = device(first.name);
    storeToken('plain-platform-token');
    expect(await openDeviceLock(d.data, { userId: 'coach-1', fresh: false })).toBe('locked');
    expect(d.calls).toEqual([]);
    expect(d.db.keys.unlocked).toBe(false);
    d.db.close();
  });

  it('the PIN brings back the sign-in sealed at the last start; a lock takes it and the key out of memory', async () => {
    const first = device();
    storeToken('TOKEN-1');
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await withPin(first.db);
    // Sealed in meta: no clear copy of the token anywhere in the stored row.
    const raw = new Dexie(first.name);
    await raw.open();
    const stored = JSON.stringify(await raw.table('meta').toArray(), (_k, v: unknown) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v));
    raw.close();
    expect(stored).toContain('"key":"session"');
    expect(stored).not.toContain('TOKEN-1');
    lockDevice(first.data);
    storeToken(null); // the shell drops the sign-in once sync stopped
    expect(first.db.keys.unlocked).toBe(false);
    first.db.close();

    const d = device(first.name);
    expect(await openDeviceLock(d.data, { userId: 'coach-1', fresh: false })).toBe('locked');
    expect((await unlockWithPin(d.db, PIN, Date.now(), { params: FAST })).ok).toBe(true);
    lockDevice(d.data);
    storeToken(null);
    expect(await unlockDevice(d.data, PIN)).toEqual({ ok: true });
    expect(getStoredToken()).toBe('TOKEN-1');
    expect(await d.db.participants.count()).toBe(0);
    d.db.close();
  });

  it('a fresh password sign-in opens with this device’s rotated server key, and seals the copy again with the new one', async () => {
    const first = device();
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await withPin(first.db);
    await first.db.participants.put({ id: 'p1', first_name: 'Ana', last_name: 'Ruiz' });
    const sealedBefore = (await readVault(first.db))?.server?.sealed;
    lockDevice(first.data);
    first.db.close();

    let d = device(first.name);
    expect(await openDeviceLock(d.data, { userId: 'coach-1', fresh: true })).toBe('unlocked');
    expect(await d.db.participants.get('p1')).toMatchObject({ first_name: 'Ana' });
    expect((await readVault(d.db))?.server?.sealed).not.toEqual(sealedBefore);
    lockDevice(d.data);
    d.db.close();

    // Twice more: each release's key is new, and the one it replaced still opens the copy.
    for (let i = 0; i < 2; i++) {
      d = device(first.name);
      expect(await openDeviceLock(d.data, { userId: 'coach-1', fresh: true })).toBe('unlocked');
      lockDevice(d.data);
      d.db.close();
    }
  });

  it('a refused key (account not approved, sign-in not fresh) opens nothing: the PIN is asked', async () => {
    const first = device();
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await withPin(first.db);
    lockDevice(first.data);
    first.db.close();
    const d = device(first.name, { refuse: { status: 403, code: 'FRESH_SIGN_IN_REQUIRED' } });
    expect(await openDeviceLock(d.data, { userId: 'coach-1', fresh: true })).toBe('locked');
    expect(await readVault(d.db)).not.toBeNull();
    d.db.close();
  });

  it('locked, it names whose tablet it is from the clear coach directory, nothing sealed (issue #23.9)', async () => {
    const first = device();
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await withPin(first.db);
    await first.db.users.bulkPut([
      { id: 'coach-1', email: 'ana@example.org', full_name: 'Ana Coach' },
      { id: 'coach-2', email: 'ben@example.org', full_name: 'Ben Other' },
    ]);
    lockDevice(first.data);
    first.db.close();

    const d = device(first.name);
    expect(await openDeviceLock(d.data, { userId: 'coach-1', fresh: false })).toBe('locked');
    expect(d.db.keys.unlocked).toBe(false);
    expect((await deviceLockInfo(d.data)).owner).toEqual({ name: 'Ana Coach', email: 'ana@example.org' });
    // Not in the directory (a coach not yet approved): no name rather than a guess.
    await d.db.users.delete('coach-1');
    expect((await deviceLockInfo(d.data)).owner).toBeNull();
    d.db.close();
  });

  it('ten wrong PINs destroy the PIN’s wrapping, not the data: the waiting change stays, a fresh sign-in opens it (issue #21.7)', async () => {
    const first = device();
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await withPin(first.db);
    await first.db.outbox.add({ entity: 'Participant', record_id: 'x', kind: 'create', data: { first_name: 'Ana' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'coach-1', created_at: 1 });
    lockDevice(first.data);
    first.db.close();

    const d = device(first.name);
    expect(await openDeviceLock(d.data, { userId: 'coach-1', fresh: false })).toBe('locked');
    const vault = await readVault(d.db);
    await d.db.meta.put({ key: 'vault', value: { ...vault, failed_attempts: MAX_ATTEMPTS - 1 } });
    expect((await deviceLockInfo(d.data)).pendingKinds).toEqual([{ entity: 'Participant', count: 1 }]);
    expect(await unlockWithPin(d.db, '00000000', Date.now() + 10 * 3600_000, { params: FAST })).toEqual({ ok: false, reason: 'pin-destroyed' });
    // The right PIN no longer opens it.
    expect(await unlockWithPin(d.db, PIN, Date.now() + 20 * 3600_000, { params: FAST })).toEqual({ ok: false, reason: 'pin-destroyed' });
    expect(await d.db.outbox.count()).toBe(1);
    expect((await deviceLockInfo(d.data)).pinDestroyed).toBe(true);

    expect(await openDeviceLock(d.data, { userId: 'coach-1', fresh: true })).toBe('set-pin');
    expect(await d.db.outbox.get(1)).toMatchObject({ data: { first_name: 'Ana' } });
    d.db.close();
  });

  it('another account’s copy: held while its changes wait (S11), erased for a fresh one when none do', async () => {
    const first = device();
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await first.db.outbox.add({ entity: 'Participant', record_id: 'x', kind: 'create', data: { first_name: 'Ana' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'coach-1', created_at: 1 });
    first.db.close();

    let d = device(first.name);
    expect(await openDeviceLock(d.data, { userId: 'admin-1', fresh: true })).toBe('other-user');
    expect(await d.db.outbox.count()).toBe(1);
    await d.db.outbox.clear(); // an administrator discarded them
    d.db.close();

    d = device(first.name);
    expect(await openDeviceLock(d.data, { userId: 'admin-1', fresh: true })).toBe('set-pin');
    expect((await readVault(d.db))?.user_id).toBe('admin-1');
    d.db.close();
  });
});

describe('the wrong-PIN count (issue #21.8)', () => {
  it('is counted before the derivation under one lock: ten tries at once from two tabs count ten', async () => {
    const first = device();
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await withPin(first.db);
    lockDevice(first.data);
    const tabA = first.db;
    const tabB = new PassageDB(first.name, new KeyRing());
    const at = Date.now() + 3600_000;
    const tries = Array.from({ length: 4 }, (_, i) => unlockWithPin(i % 2 ? tabB : tabA, '11111111', at, { params: FAST }));
    const results = await Promise.all(tries);
    expect(results.every((r) => !r.ok)).toBe(true);
    expect((await readVault(tabA))?.failed_attempts).toBe(4);
    tabB.close();
    tabA.close();
  });

  it('a clock set back does not shorten the wait after five wrong PINs', async () => {
    const first = device();
    await openDeviceLock(first.data, { userId: 'coach-1', fresh: true });
    await withPin(first.db);
    lockDevice(first.data);
    const t0 = Date.UTC(2026, 10, 25, 12);
    for (let i = 0; i < 5; i++) await unlockWithPin(first.db, '11111111', t0, { params: FAST });
    const waiting = (await readVault(first.db))!.retry_at!;
    expect(waiting).toBe(t0 + 30_000);
    // The device clock is set an hour back: the wait is measured from the latest time a try saw.
    const back = await unlockWithPin(first.db, PIN, t0 - 3600_000, { params: FAST });
    expect(back).toEqual({ ok: false, reason: 'wait', retryAt: waiting });
    expect((await unlockWithPin(first.db, PIN, t0 + 31_000, { params: FAST })).ok).toBe(true);
    first.db.close();
  });
});
