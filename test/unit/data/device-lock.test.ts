import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { PassageDB } from '../../../src/data/db';
import { resetDataContext, setDataContext } from '../../../src/data/context';
import { KeyRing } from '../../../src/data/vault/key-ring';
import { readVault, setPin } from '../../../src/data/vault/device-vault';
import { lockDevice, openDeviceLock, unlockDevice } from '../../../src/data/device-lock';
import type { PlatformClientLike } from '../../../src/data/platform-like';

/** Issue #14.2–3: which screen a start leads to, with a scripted server key. */
let n = 0;
const SERVER_KEY = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i + 7)));

function device(name = `lock-${process.pid}-${Date.now()}-${n++}`, online = true) {
  const db = new PassageDB(name, new KeyRing());
  const calls: string[] = [];
  const client = {
    functions: {
      invoke: async (fn: string) => {
        calls.push(fn);
        if (!online) throw Object.assign(new Error('Failed to fetch'), { status: undefined });
        return { data: { key: SERVER_KEY, policy: { pin_min_length: 6, idle_lock_minutes: 10 } } };
      },
    },
  } as unknown as PlatformClientLike;
  setDataContext({ db, client, userId: 'coach-1' });
  return { db, name, calls };
}

beforeEach(() => resetDataContext());

describe('openDeviceLock', () => {
  it('first sign-in here: a new key sealed by the server’s, then Set a PIN; the administrator’s policy is kept', async () => {
    const { db, calls } = device();
    expect(await openDeviceLock({ userId: 'coach-1', online: true, signedInNow: true })).toBe('set-pin');
    expect(calls).toEqual(['deviceKey']);
    expect(db.keys.unlocked).toBe(true);
    const vault = await readVault(db);
    expect(vault).toMatchObject({ user_id: 'coach-1', pin: null, policy: { idle_lock_minutes: 10 } });
    expect(vault?.server?.sealed).toBeInstanceOf(Uint8Array);
  });

  it('an online start opens with the server’s key; after Lock (or any lock screen) only the PIN or a new sign-in does; offline always asks', async () => {
    const first = device();
    await openDeviceLock({ userId: 'coach-1', online: true, signedInNow: true });
    await setPin(first.db, '246810', 1000);
    await first.db.participants.put({ id: 'p1', first_name: 'Ana', last_name: 'Ruiz' });
    first.db.close();

    let d = device(first.name);
    expect(await openDeviceLock({ userId: 'coach-1', online: true, signedInNow: false })).toBe('unlocked');
    expect(await d.db.participants.get('p1')).toMatchObject({ first_name: 'Ana' });
    lockDevice();
    await new Promise((r) => setTimeout(r, 20)); // the lock is written after the key is dropped
    expect(d.db.keys.unlocked).toBe(false);
    d.db.close();

    d = device(first.name);
    expect(await openDeviceLock({ userId: 'coach-1', online: true, signedInNow: false })).toBe('locked');
    d.db.close();
    d = device(first.name, false);
    expect(await openDeviceLock({ userId: 'coach-1', online: false, signedInNow: false })).toBe('locked');
    expect(await unlockDevice('246810')).toEqual({ ok: true });
    expect(await d.db.participants.get('p1')).toMatchObject({ first_name: 'Ana' });
    d.db.close();

    // An interactive sign-in (Forgot your PIN?) opens it even while the lock screen was up.
    d = device(first.name);
    lockDevice();
    await new Promise((r) => setTimeout(r, 20));
    expect(await openDeviceLock({ userId: 'coach-1', online: true, signedInNow: true })).toBe('unlocked');
    d.db.close();
  });

  it('another account’s copy: held while its changes wait (S11), erased for a fresh one when none do', async () => {
    const first = device();
    await openDeviceLock({ userId: 'coach-1', online: true, signedInNow: true });
    await first.db.outbox.add({ entity: 'Participant', record_id: 'x', kind: 'create', data: { first_name: 'Ana' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'coach-1', created_at: 1 });
    first.db.close();

    let d = device(first.name);
    expect(await openDeviceLock({ userId: 'admin-1', online: true, signedInNow: true })).toBe('other-user');
    expect(await d.db.outbox.count()).toBe(1);
    await d.db.outbox.clear(); // an administrator discarded them
    d.db.close();

    d = device(first.name);
    expect(await openDeviceLock({ userId: 'admin-1', online: true, signedInNow: true })).toBe('set-pin');
    expect((await readVault(d.db))?.user_id).toBe('admin-1');
    d.db.close();
  });
});
