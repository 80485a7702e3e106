import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { TABLET_SCOPE_KEY, type TabletScope } from '../../../src/data/sync/scope';
import { createParticipant, updateParticipant } from '../../../src/data/commands/participants';
import type { EngineTuning } from '../../../src/data/sync/types';
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
let cohortIds: string[] = [];
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
  cohortIds = cohorts.map((c) => c.id as string);
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
function coachTablet(
  plain = false,
  { feed = true, onRequest, tuning }: { feed?: boolean; onRequest?: (req: Request) => Promise<void>; tuning?: Partial<EngineTuning> } = {},
) {
  const requests: string[] = [];
  const client = server.client('coach', async (req) => {
    requests.push(`${req.method} ${new URL(req.url).pathname}`);
    await onRequest?.(req);
    return 'none' as const;
  });
  const transport = createPlatformTransport(client, server.coach.id);
  if (plain) delete transport.pullScope;
  if (plain || !feed) delete transport.changeFeed;
  const device = makeDevice({
    name: `scoped-${n++}`,
    userId: server.coach.id,
    clock: new FakeClock(Date.now()),
    transport,
    engine: { scope: { email: 'coach@example.org', everySite: false }, tuning },
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

  for (const [variant, plain, feed] of [
    ['the plain API', true, false],
    ['scopePull', false, false],
    ['the change feed', false, true],
  ] as const) {
    it(`an intake enrolled at another site leaves the tablet, though it was edited while it left (S15, ${variant})`, async () => {
      // Every cycle reconciles (so rows beyond the scope also leave at its end) and reads from the
      // cursor exactly: what was pulled before the cursor is never read again by accident.
      let during: ((req: Request) => Promise<void>) | null = null;
      const tablet = coachTablet(plain, {
        feed,
        tuning: { overlapMs: 0, reconcileMs: 0 },
        onRequest: async (req) => during?.(req),
      });
      const { data, db, engine } = tablet;
      await engine.start();
      const intake = await createParticipant(data, { first_name: 'Moved', last_name: `Away ${variant}` });
      await engine.runOnce();
      const id = (await server.rows('Participant')).find((p) => p.last_name === `Away ${variant}`)!.id as string;
      expect(await db.participants.get(id)).toBeTruthy();
      expect(intake.id).not.toBe(id);

      // The office enrolls them at a site this coach does not work (then another enrollment changes,
      // so the cursor moves past theirs).
      await server.store.create(APP, 'Enrollment', { participant_id: id, cohort_id: cohortIds[1], enrollment_status: 'active' }, meta);
      await new Promise((r) => setTimeout(r, 5));
      const [other] = await server.store.list(APP, 'Enrollment', { q: { cohort_id: cohortIds[0] }, limit: 1 });
      await server.store.update(APP, 'Enrollment', other.id as string, { enrollment_status: 'active' });

      // The coach corrects the record while the tablet syncs: once as the cycle starts reading (it
      // is still queued when the enrollment arrives), once as that correction goes out.
      let edits = 0;
      during = async (req) => {
        const url = new URL(req.url).pathname;
        const sends = req.method === 'PUT' || (req.method === 'POST' && url.includes('/entities/'));
        if (edits === 0 && !sends) {
          edits++;
          await updateParticipant(data, id, { case_manager: 'Dana Whitfield' });
        } else if (edits === 1 && req.method === 'PUT' && url.includes(`/Participant/${id}`)) {
          edits++;
          await updateParticipant(data, id, { case_manager: 'Ray Ochoa' });
        }
      };
      await engine.runOnce();
      expect(edits).toBe(2);
      during = null;
      for (let i = 0; i < 3; i++) await engine.runOnce();

      const onServer = (await server.rows('Participant')).find((p) => p.id === id)!;
      expect(onServer.case_manager).toBe('Ray Ochoa');
      expect(await db.outbox.count()).toBe(0);
      // Their enrollment is at a site beyond the tablet's: neither it nor they stay.
      expect(await db.enrollments.where('participant_id').equals(id).count()).toBe(0);
      expect(await db.participants.get(id)).toBeUndefined();
      await engine.stop();
    });
  }
});

