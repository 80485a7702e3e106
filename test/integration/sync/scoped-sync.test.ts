import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { TABLET_SCOPE_KEY, type TabletScope } from '../../../src/data/sync/scope';
import { createParticipant } from '../../../src/data/commands/participants';
import { makeDevice } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { APP, startSyncServer, type SyncServer } from './sync-server';

/**
 * Issue #22 against the real server in-process: the coach's tablet holds the sites of their
 * cohorts, through the platform API's own filters ($or over lead/support, $in chunks), and the
 * scope's rows and only those arrive; an intake made on the tablet stays there once sent.
 */
let server: SyncServer;
let n = 0;
const meta = { by: 'admin@example.org', byId: 'admin' };

beforeAll(async () => {
  server = await startSyncServer();
  const create = (entity: string, rows: Record<string, unknown>[]) => server.store.createMany(APP, entity, rows, meta);
  const sites = await create('Site', [0, 1, 2, 3].map((i) => ({ site_name: `Site ${i}` })));
  const [program] = await create('Program', [{ program_name: 'Digital Skills', active: true }]);
  const cohorts = await create(
    'Cohort',
    sites.map((site, i) => ({
      program_id: program.id,
      site_id: site.id,
      cohort_code: `C${i}`,
      lead_coach_email: i === 0 ? 'coach@example.org' : 'other@example.org',
      support_coach_emails: i === 2 ? ['coach@example.org'] : [],
    })),
  );
  const people = await create('Participant', Array.from({ length: 400 }, (_, i) => ({ first_name: `P${i}`, last_name: `Site${i % 4}` })));
  await create('Enrollment', people.map((p, i) => ({ participant_id: p.id, cohort_id: cohorts[i % 4].id, enrollment_status: 'active' })));
  await create('Outcome', people.map((p) => ({ participant_id: p.id, outcome_type: 'employment' })));
});
afterAll(async () => {
  await server.close();
});

/**
 * A coach's tablet; `plain`: against a platform without the `scopePull` function (issue #22.5);
 * `feed: false`: without the change feed (S17), so incremental pulls go through scopePull too.
 */
function coachTablet(plain = false, { feed = true } = {}) {
  const requests: string[] = [];
  const client = server.client('coach', (req) => {
    requests.push(`${req.method} ${new URL(req.url).pathname}`);
    return 'none';
  });
  const transport = createPlatformTransport(client, server.coach.id);
  if (plain) delete transport.pullScope;
  if (plain || !feed) delete transport.changeFeed;
  const device = makeDevice({
    name: `scoped-${n++}`,
    userId: server.coach.id,
    clock: new FakeClock(Date.now()),
    transport,
    engine: { scope: { email: 'coach@example.org', everySite: false } },
    // The test runs each cycle itself.
    nudges: false,
  });
  return { ...device, requests };
}

describe('issue #22: scoped sync against the real server', () => {
  it("a coach's tablet holds the participants of their two sites only, with their enrollments and outcomes", async () => {
    const { db, engine } = coachTablet();
    await engine.start();
    await engine.runOnce();
    const scope = (await db.meta.get(TABLET_SCOPE_KEY))?.value as TabletScope;
    expect(scope.siteIds).toHaveLength(2);
    expect(await db.sites.count()).toBe(4);
    expect(await db.cohorts.count()).toBe(2);
    const names = (await db.participants.toArray()).map((p) => p.last_name);
    expect(names).toHaveLength(200);
    expect(new Set(names)).toEqual(new Set(['Site0', 'Site2']));
    expect(await db.enrollments.count()).toBe(200);
    expect(await db.outcomes.count()).toBe(200);
    await engine.stop();
  });

  it('an intake made on the tablet is sent once and stays, though it has no enrollment', async () => {
    const { data, db, engine } = coachTablet();
    await engine.start();
    await engine.runOnce();
    await createParticipant(data, { first_name: 'Walk', last_name: 'In' });
    await engine.runOnce();
    await engine.runOnce();
    const onServer = (await server.rows('Participant')).filter((p) => p.first_name === 'Walk');
    expect(onServer).toHaveLength(1);
    expect(await db.participants.get(onServer[0].id as string)).toMatchObject({ last_name: 'In' });
    expect(await db.outbox.count()).toBe(0);
    await engine.stop();
  });

  it('the server\'s scopePull brings the same rows as the plain API, in one request instead of one per entity and chunk', async () => {
    const fast = coachTablet(false, { feed: false });
    await fast.engine.start();
    await fast.engine.runOnce();
    const plain = coachTablet(true);
    await plain.engine.start();
    await plain.engine.runOnce();
    for (const table of ['cohorts', 'enrollments', 'participants', 'outcomes', 'sessions'] as const) {
      expect(((await fast.db.table(table).toCollection().primaryKeys()) as string[]).sort()).toEqual(((await plain.db.table(table).toCollection().primaryKeys()) as string[]).sort());
    }
    const scopedReads = (requests: string[]) => requests.filter((r) => /entities\/(Cohort|Enrollment|Session|Participant|Outcome)/.test(r) || r.includes('functions/scopePull'));
    // start() runs a cycle and runOnce() another: one scopePull each, no per-entity read.
    expect(scopedReads(fast.requests).filter((r) => r.includes('scopePull'))).toHaveLength(2);
    expect(scopedReads(fast.requests).filter((r) => r.includes('/entities/'))).toEqual([]);
    expect(scopedReads(plain.requests).length).toBeGreaterThan(6);
    // The next cycle asks only for what changed: a participant edited on the server comes, alone.
    const [someone] = await plain.db.participants.limit(1).toArray();
    await server.store.update(APP, 'Participant', someone.id, { case_manager: 'Dana Whitfield' });
    fast.requests.length = 0;
    await fast.engine.runOnce();
    expect((await fast.db.participants.get(someone.id))?.case_manager).toBe('Dana Whitfield');
    expect(fast.requests.filter((r) => r.includes('scopePull'))).toHaveLength(1);
    await fast.engine.stop();
    await plain.engine.stop();
  });
});

