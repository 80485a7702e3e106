import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentEngine, startDataSync, stopDataSync } from '../../../src/data/runtime';
import type { DataContext } from '../../../src/data/context';
import type { PassageDB } from '../../../src/data/db';
import { makeDevice } from '../../support/device';
import { createParticipant } from '../../../src/data/commands/participants';
import { syncNow } from '../../../src/data/commands/sync-now';
import type { PlatformClientLike, Row } from '../../../src/data/platform-like';
import { MemoryServer } from '../../support/memory-server';
import type { EntityName } from '../../../shared/entities';

/** The platform client's shape over the in-memory server, recording what was called. */
function fakeClient(server: MemoryServer, me: Row) {
  const calls: string[] = [];
  const client: PlatformClientLike = {
    entities: (name) => {
      const e = name as EntityName;
      return {
        list: async () => server.filter(e, {}, '-created_date', 5000),
        filter: async (q, sort, limit, skip, fields) => (calls.push(`filter ${name}`), server.filter(e, q, sort ?? '-created_date', limit ?? 5000, skip, fields)),
        get: async (id) => server.get(e, id)!,
        create: async (data) => (calls.push(`create ${name}`), server.create(e, data)),
        update: async (id, data) => (calls.push(`update ${name}`), server.update(e, id, data)!),
        delete: async (id) => server.remove(e, id),
        bulkCreate: async (rows) => rows.map((r) => server.create(e, r)),
        bulkUpdate: async (rows) => rows.map(({ id, ...data }) => (calls.push(`bulkUpdate ${name}`), server.update(e, id, data)!)),
      };
    },
    auth: {
      me: async () => (calls.push('me'), me),
      updateMe: async (data) => (calls.push('updateMe'), Object.assign(me, data)),
    },
  };
  return { client, calls };
}

/** An approved coach: the engine pulls every entity for them. */
const COACH = { id: 'u1', role: 'user', approved: true, requested_access_date: '2026-01-01' };

// Each test's device: signed out, its database unlocked (the runtime runs once the PIN opened it,
// issue #14), the browser's clock as the app's.
let data: DataContext;
let db: PassageDB;
beforeEach(() => {
  ({ data, db } = makeDevice({ userId: null, now: () => Date.now() }));
});
afterEach(async () => {
  await stopDataSync(data);
  await db.delete();
});

describe('runtime', () => {
  it('a 2xx answer to any request of the client tells the engine the server is reachable (issue #9.3)', async () => {
    const server = new MemoryServer();
    const { client } = fakeClient(server, { id: 'u1', email: 'coach@example.org' });
    const listeners = new Set<(a: { status: number; ok: boolean }) => void>();
    client.onAnswer = (l) => (listeners.add(l), () => listeners.delete(l));
    await startDataSync(data, { client, user: COACH });
    const engine = currentEngine(data)!;
    await engine.idle();
    const reached = vi.spyOn(engine, 'serverReached');
    for (const l of listeners) l({ status: 503, ok: false });
    expect(reached).not.toHaveBeenCalled();
    for (const l of listeners) l({ status: 200, ok: true });
    expect(reached).toHaveBeenCalledTimes(1);
    await stopDataSync(data);
    expect(listeners.size).toBe(0);
  });

  it('a start with the browser offline (navigator.onLine false) tells the engine, which then waits for "online" instead of probing', async () => {
    const { SyncEngine } = await import('../../../src/data/sync/engine');
    const told = vi.spyOn(SyncEngine.prototype, 'connectionChanged');
    const { client } = fakeClient(new MemoryServer(), { id: 'u1', email: 'coach@example.org' });
    vi.stubGlobal('navigator', { onLine: true });
    try {
      await startDataSync(data, { client, user: COACH });
      expect(told).not.toHaveBeenCalled();
      await stopDataSync(data);
      vi.stubGlobal('navigator', { onLine: false });
      await startDataSync(data, { client, user: COACH });
      expect(told).toHaveBeenCalledExactlyOnceWith(false);
    } finally {
      vi.unstubAllGlobals();
      told.mockRestore();
    }
  });

  it('startDataSync wires commands, engine and platform client; stopDataSync unwires them', async () => {
    const server = new MemoryServer();
    server.create('Program', { program_name: 'Welding' });
    const { client, calls } = fakeClient(server, { id: 'u1', email: 'coach@example.org' });
    await startDataSync(data, { client, user: COACH });
    expect(data.userId).toBe('u1');
    await currentEngine(data)!.idle();
    expect(await db.programs.count()).toBe(1);

    await createParticipant(data, { first_name: 'Ana', last_name: 'Ruiz' });
    syncNow(data);
    await new Promise((r) => setTimeout(r, 50));
    await currentEngine(data)!.idle();
    expect(server.rows('Participant')).toEqual([expect.objectContaining({ first_name: 'Ana', client_ref: expect.any(String) })]);
    expect(calls).toContain('create Participant');

    await stopDataSync(data);
    expect(currentEngine(data)).toBeNull();
    expect(data.userId).toBeNull();
    expect(data.sync).toBeNull();
  });

  it('the signed-in user\'s own profile update goes out as PUT me', async () => {
    const server = new MemoryServer();
    const me = { id: 'u1', email: 'coach@example.org', updated_date: '2026-01-01T00:00:00.000Z' };
    const { client, calls } = fakeClient(server, me);
    await db.users.put({ ...me });
    await startDataSync(data, { client, user: COACH });
    await currentEngine(data)!.idle();
    const { submitCoachProfile } = await import('../../../src/data/commands/profile');
    await db.meta.put({ key: 'currentUser', value: me });
    await submitCoachProfile(data, { coach_type: 'lead_coach', organization: 'Org', bio: 'Bio', phone: '1' });
    syncNow(data);
    await new Promise((r) => setTimeout(r, 50));
    await currentEngine(data)!.idle();
    expect(calls).toContain('updateMe');
    expect(calls).not.toContain('update User');
    expect(me).toMatchObject({ coach_type: 'lead_coach', requested_access_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('runtime start/stop order', () => {
  it('two starts in a row (StrictMode) leave one engine, and a stop after them stops it', async () => {
    const server = new MemoryServer();
    const { client } = fakeClient(server, { id: 'u1', email: 'coach@example.org' });
    const first = startDataSync(data, { client, user: COACH });
    const second = startDataSync(data, { client, user: { id: 'u2' } });
    await Promise.all([first, second]);
    const engine = currentEngine(data)!;
    expect(data.userId).toBe('u2');
    await stopDataSync(data);
    expect(currentEngine(data)).toBeNull();
    expect(engine.isLeader).toBe(false);
  });
});

describe('runtime for a user not approved yet', () => {
  it('pulls nothing (the server would answer 403) but still pushes their own profile', async () => {
    const server = new MemoryServer();
    server.create('Program', { program_name: 'Welding' });
    const me = { id: 'u2', email: 'newcoach@example.org', updated_date: '2026-01-01T00:00:00.000Z' };
    const { client, calls } = fakeClient(server, me);
    await startDataSync(data, { client, user: { id: 'u2', role: 'user', approved: false } });
    await currentEngine(data)!.idle();
    expect(calls.filter((c) => c.startsWith('filter'))).toEqual([]);
    expect(await db.programs.count()).toBe(0);

    const { submitCoachProfile } = await import('../../../src/data/commands/profile');
    await db.meta.put({ key: 'currentUser', value: me });
    await submitCoachProfile(data, { coach_type: 'volunteer', organization: 'Org', bio: 'Bio', phone: '1' });
    syncNow(data);
    await new Promise((r) => setTimeout(r, 50));
    await currentEngine(data)!.idle();
    expect(calls).toContain('updateMe');
    expect(await db.outbox.count()).toBe(0);
  });

  it('once approved, starting again for the same user brings a pulling engine', async () => {
    const server = new MemoryServer();
    server.create('Program', { program_name: 'Welding' });
    const { client } = fakeClient(server, { id: 'u2', email: 'newcoach@example.org' });
    await startDataSync(data, { client, user: { id: 'u2', role: 'user', approved: false, requested_access_date: '2026-01-01' } });
    await currentEngine(data)!.idle();
    expect(await db.programs.count()).toBe(0);
    await startDataSync(data, { client, user: { id: 'u2', role: 'user', approved: true, requested_access_date: '2026-01-01' } });
    await currentEngine(data)!.idle();
    expect(await db.programs.count()).toBe(1);
  });
});
