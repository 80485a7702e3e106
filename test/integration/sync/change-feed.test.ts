import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../../src/platform';
import type { PlatformClientLike } from '../../../src/data/platform-like';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import type { EntityRecord } from '../../../server/store/types';
import { makeDevice } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { APP, startSyncServer, type SyncServer } from './sync-server';

/**
 * Issue #24.1, docs/design.md S17, against the real server in-process: after the first sync, the
 * changes another client makes reach the tablet with ONE request (`changeFeed`), deletions too; a
 * coach's tablet gets what a new cohort at their site brings; a server without the function is
 * pulled entity by entity; a cursor older than the kept deletions falls back and reconciles.
 */
let server: SyncServer;
let n = 0;
const meta = { by: 'admin@example.org', byId: 'admin' };
let sites: EntityRecord[];
let cohorts: EntityRecord[];
let people: EntityRecord[];

beforeAll(async () => {
  server = await startSyncServer();
  const create = (entity: string, rows: Record<string, unknown>[]) => server.store.createMany(APP, entity, rows, meta);
  sites = await create('Site', [0, 1].map((i) => ({ site_name: `Site ${i}` })));
  cohorts = await create('Cohort', [
    { site_id: sites[0].id, cohort_code: 'A', lead_coach_email: 'coach@example.org' },
    { site_id: sites[1].id, cohort_code: 'B', lead_coach_email: 'other@example.org' },
  ]);
  people = await create('Participant', Array.from({ length: 40 }, (_, i) => ({ first_name: `P${i}`, last_name: 'Test' })));
  await create('Enrollment', people.map((p, i) => ({ participant_id: p.id, cohort_id: cohorts[i % 2].id, enrollment_status: 'active' })));
});
afterAll(() => server.close());

/** A tablet whose requests are listed; `plain`: a platform without the change feed (404). */
function tablet(who: 'admin' | 'coach', opts: { plain?: boolean } = {}) {
  const requests: string[] = [];
  const client = createPlatformClient({
    serverUrl: 'http://passage.test',
    appId: APP,
    getToken: () => server.tokens[who],
    originUrl: 'http://passage.test/',
    fetch: async (input, init) => {
      const req = new Request(input as RequestInfo, init);
      const path = new URL(req.url).pathname;
      requests.push(`${req.method} ${path}`);
      if (opts.plain && path.endsWith('/functions/changeFeed')) {
        return new Response(JSON.stringify({ message: 'No such function', code: 'NOT_FOUND' }), { status: 404, headers: { 'content-type': 'application/json' } });
      }
      return server.app.fetch(req);
    },
  }) as unknown as PlatformClientLike;
  const transport = createPlatformTransport(client, who === 'admin' ? server.admin.id : server.coach.id);
  const device = makeDevice({
    name: `feed-${n++}`,
    userId: who === 'admin' ? server.admin.id : server.coach.id,
    clock: new FakeClock(Date.now()),
    transport,
    engine: { scope: who === 'admin' ? { email: 'admin@example.org', everySite: true } : { email: 'coach@example.org', everySite: false } },
    nudges: false,
  });
  return { ...device, requests };
}

/** Another client of the server: an administrator at a desk, over HTTP. */
const desk = () => server.client('admin');

describe('S17 change feed against the real server', () => {
  it('S17 10 changes by another client reach the tablet with one feed request; deletions too', async () => {
    const { db, engine, requests } = tablet('admin');
    await engine.start();
    await engine.runOnce();
    expect(await db.participants.count()).toBe(40);

    const api = desk().entities('Participant');
    for (const p of people.slice(0, 10)) await api.update(p.id, { last_name: 'Changed' });
    requests.length = 0;
    await engine.runOnce();
    expect(requests).toEqual([`POST /api/apps/${APP}/functions/changeFeed`]);
    expect((await db.participants.toArray()).filter((p) => p.last_name === 'Changed')).toHaveLength(10);

    const gone = await api.create({ first_name: 'Short', last_name: 'Lived' });
    await engine.runOnce();
    expect(await db.participants.get(gone.id)).toBeDefined();
    await api.delete(gone.id);
    requests.length = 0;
    await engine.runOnce();
    expect(requests).toEqual([`POST /api/apps/${APP}/functions/changeFeed`]);
    expect(await db.participants.get(gone.id)).toBeUndefined();
    await engine.stop();
  });

  it("S17 a coach's tablet: a new cohort at their site brings its participants, a change elsewhere stays away", async () => {
    const { db, engine } = tablet('coach');
    await engine.start();
    await engine.runOnce();
    const held = await db.participants.count();
    expect(held).toBe(20);

    const admin = desk();
    // A new cohort at the coach's site enrols two participants of the other site (unchanged rows).
    const cohort = await admin.entities('Cohort').create({ site_id: sites[0].id, cohort_code: 'A2', lead_coach_email: 'coach@example.org' });
    await admin.entities('Enrollment').bulkCreate([people[1], people[3]].map((p) => ({ participant_id: p.id, cohort_id: cohort.id, enrollment_status: 'active' })));
    await admin.entities('Participant').update(people[5].id, { last_name: 'Elsewhere' }); // site 1 only
    await engine.runOnce();
    expect(await db.cohorts.get(cohort.id)).toBeDefined();
    expect(await db.participants.get(people[1].id)).toBeDefined();
    expect(await db.participants.get(people[3].id)).toBeDefined();
    expect(await db.participants.get(people[5].id)).toBeUndefined();
    expect(await db.participants.count()).toBe(22);
    await engine.stop();
  });

  it('S17 a server without the feed is pulled entity by entity, as before', async () => {
    const { db, engine, requests } = tablet('admin', { plain: true });
    await engine.start();
    await engine.runOnce();
    await desk().entities('Participant').update(people[7].id, { last_name: 'Plain' });
    requests.length = 0;
    await engine.runOnce();
    expect(requests.filter((r) => r.includes('/functions/changeFeed'))).toEqual([]);
    expect(requests.filter((r) => r.startsWith(`GET /api/apps/${APP}/entities/`)).length).toBeGreaterThanOrEqual(9);
    expect((await db.participants.get(people[7].id))?.last_name).toBe('Plain');
    await engine.stop();
  });

  it('S17 a cursor older than the kept deletions: per-entity pulls and a reconcile, then the feed again', async () => {
    const { db, engine, requests } = tablet('admin');
    await engine.start();
    await engine.runOnce();
    const api = desk().entities('Participant');
    const gone = await api.create({ first_name: 'Pruned', last_name: 'Away' });
    await engine.runOnce();
    await api.delete(gone.id);
    await server.store.pruneChanges(APP, 0); // the tombstone is forgotten before the tablet asks
    requests.length = 0;
    await engine.runOnce();
    expect(await db.participants.get(gone.id)).toBeUndefined();
    expect(requests.filter((r) => r.startsWith(`GET /api/apps/${APP}/entities/Participant`)).length).toBeGreaterThanOrEqual(2); // pull + id listing

    await api.update(people[9].id, { last_name: 'Back on the feed' });
    requests.length = 0;
    await engine.runOnce();
    expect(requests).toEqual([`POST /api/apps/${APP}/functions/changeFeed`]);
    expect((await db.participants.get(people[9].id))?.last_name).toBe('Back on the feed');
    await engine.stop();
  });
});
