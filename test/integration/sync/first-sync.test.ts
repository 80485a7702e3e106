import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PassageDB } from '../../../src/data/db';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { readSyncStatus } from '../../../src/data/queries/sync-status';
import type { EngineTuning } from '../../../src/data/sync/types';
import { makeDevice } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { startSyncServer, type SyncServer } from './sync-server';

/**
 * Issues #9.5 and #11.3 against the real server: first-sync progress with the server's own
 * GET /count, a first sync cut off and resumed, and the coach's user list checked cheaply.
 */
let server: SyncServer;
let n = 0;

beforeAll(async () => {
  server = await startSyncServer();
  const admin = server.client('admin');
  await admin.entities('Participant').bulkCreate(Array.from({ length: 12 }, (_, i) => ({ first_name: `P${i}`, last_name: 'Seed' })));
  await admin.entities('Program').create({ program_name: 'Welding', active: true });
});
afterAll(async () => {
  await server.close();
});

/** Every request a device sends, as "METHOD /entities/…" (path and query, decoded). */
/** `feed: false`: a server without the change feed (S17), whose incremental pulls go entity by entity. */
function device(opts: { tuning?: Partial<EngineTuning>; db?: PassageDB; feed?: boolean } = {}) {
  const requests: string[] = [];
  // Once `cutWhen` matches a request, that one and every later one fail as if offline.
  const link = { cut: false, cutWhen: null as null | ((request: string) => boolean) };
  const client = server.client('coach', (req) => {
    const request = `${req.method} ${decodeURIComponent(new URL(req.url).pathname + new URL(req.url).search).split('/entities/')[1]}`;
    requests.push(request);
    if (link.cutWhen?.(request)) link.cut = true;
    return link.cut ? 'offline' : 'none';
  });
  const transport = createPlatformTransport(client, server.coach.id);
  if (opts.feed === false) delete transport.changeFeed;
  const { data, db, engine, settle } = makeDevice({
    name: `first-sync-${n++}`,
    db: opts.db,
    userId: server.coach.id,
    clock: new FakeClock(Date.now()),
    transport,
    engine: { tuning: opts.tuning },
  });
  return {
    data,
    db,
    engine,
    settle,
    requests,
    set cutWhen(when: (request: string) => boolean) {
      link.cutWhen = when;
    },
  };
}

describe('first sync against the real server', () => {
  it('shows rows so far of the server count per entity, stays incomplete when cut off, and resumes without downloading again', async () => {
    // The connection drops at the second page of participants: the first is on the tablet.
    const first = device({ tuning: { pageSize: 5 } });
    first.cutWhen = (request) => request.startsWith('GET Participant?') && first.requests.filter((r) => r.startsWith('GET Participant?')).length >= 2;
    const { engine } = first;
    await engine.start();
    await first.settle();
    let status = await readSyncStatus(first.data);
    expect(status.firstSyncComplete).toBe(false);
    const participants = status.firstSync.find((f) => f.entity === 'Participant')!;
    expect(participants.total).toBe(12);
    expect(participants.done).toBe(false);
    expect(participants.rows).toBe(await first.db.participants.count());
    expect(participants.rows).toBeLessThan(12);
    await engine.stop();

    // Reopened with the connection back: it finishes from its cursor and reads complete.
    const again = device({ tuning: { pageSize: 5 }, db: first.db });
    await again.engine.start();
    await again.settle();
    status = await readSyncStatus(again.data);
    expect(status.firstSync.find((f) => f.entity === 'Participant')).toEqual({ entity: 'Participant', rows: 12, total: 12, done: true });
    expect(status.firstSync.find((f) => f.entity === 'Program')).toMatchObject({ rows: 1, total: 1, done: true });
    expect(status.firstSyncComplete).toBe(true);
    expect(await again.db.participants.count()).toBe(12);
    // The resumed pull asked from the cursor on, and did not count again.
    expect(again.requests.filter((r) => r.startsWith('GET Participant/count'))).toEqual([]);
    expect(again.requests.find((r) => r.startsWith('GET Participant?'))).toContain('updated_date');
    await again.engine.stop();
  });

  it("a coach's user list is not read in full on every pull; a renamed user still arrives", async () => {
    // Entity by entity (with the change feed, S17, users come with every other change in one request).
    const d = device({ feed: false });
    await d.engine.start();
    await d.settle();
    await d.engine.runOnce();
    const listings = () => d.requests.filter((r) => r.startsWith('GET User?') && r.includes('sort=updated_date&')).length;
    const before = listings();
    d.requests.length = 0;
    await d.engine.runOnce();
    await d.engine.runOnce();
    expect(listings()).toBe(0);
    // The cheap check instead: the id of the user updated last, one small request per pull.
    expect(d.requests.filter((r) => r.startsWith('GET User'))).toHaveLength(2);
    expect(d.requests.filter((r) => r.startsWith('GET User?') && r.includes('sort=-updated_date') && r.includes('limit=1'))).toHaveLength(2);
    expect(before).toBeGreaterThan(0);

    await server.client('admin').entities('User').update(server.admin.id, { full_name: 'Ada Admin' });
    await d.engine.runOnce();
    expect(listings()).toBe(1);
    expect(await d.db.users.get(server.admin.id)).toEqual({ id: server.admin.id, email: 'admin@example.org', full_name: 'Ada Admin' });
    await d.engine.stop();
  });
});
