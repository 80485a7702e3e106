import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeFeedAnswer } from '../../../shared/change-feed';
import type { EntityRecord } from '../../../server/store/types';
import { APP, startTestServer, type TestServer } from './harness';

/**
 * Issue #24.1, docs/design.md S17: the `changeFeed` function over HTTP. One request answers every
 * change since a cursor across entities; the permission table holds as in a list (a coach reads
 * users as id, email and full name, approved ones only); a tablet's scope filters rows the way
 * scopePull does; deletions come as ids; a cursor the server cannot serve is a 410.
 */
let s: TestServer;
const PATH = `/api/apps/${APP}/functions/changeFeed`;
const meta = { by: 'admin@example.org', byId: 'admin' };
let sites: EntityRecord[];
let cohorts: EntityRecord[];

type Answer = ChangeFeedAnswer & { code?: string; message?: string };

async function feed(token: string | undefined, body: unknown): Promise<{ status: number; body: Answer }> {
  const res = await s.request('POST', PATH, { token, body });
  return { status: res.status, body: (await res.json()) as Answer };
}

/** A cursor now (no rows), as a tablet takes one before its per-entity pull. */
async function cursorNow(token: string, scope: unknown = null): Promise<string> {
  const { status, body } = await feed(token, { cursor: null, scope });
  expect(status).toBe(200);
  expect(body.changes).toEqual({});
  expect(body.more).toBe(false);
  return body.cursor;
}

const ids = (rows: Array<{ id: string }> | undefined) => (rows ?? []).map((r) => r.id).sort();

beforeAll(async () => {
  s = await startTestServer();
  const create = (entity: string, rows: Record<string, unknown>[]) => s.store.createMany(APP, entity, rows, meta);
  sites = await create('Site', [0, 1].map((i) => ({ site_name: `Site ${i}` })));
  cohorts = await create('Cohort', [
    { site_id: sites[0].id, cohort_code: 'A', lead_coach_email: 'coach@example.org' },
    { site_id: sites[1].id, cohort_code: 'B', lead_coach_email: 'other@example.org' },
  ]);
});
afterAll(() => s.close());

describe('changeFeed (issue #24.1)', () => {
  it('S17 answers every change since the cursor across entities in one request, deletions as ids', async () => {
    const cursor = await cursorNow(s.tokens.admin);
    const [ana, ben] = await s.store.createMany(APP, 'Participant', [{ first_name: 'Ana' }, { first_name: 'Ben' }], meta);
    await s.store.create(APP, 'Enrollment', { participant_id: ana.id, cohort_id: cohorts[0].id, enrollment_status: 'active' }, meta);
    await s.store.update(APP, 'Participant', ana.id, { last_name: 'Lopez' });
    await s.store.delete(APP, 'Participant', ben.id);

    const { status, body } = await feed(s.tokens.admin, { cursor });
    expect(status).toBe(200);
    expect(body.more).toBe(false);
    expect(body.changes.Participant?.rows.map((r) => [r.id, r.last_name])).toEqual([[ana.id, 'Lopez']]);
    expect(body.changes.Participant?.deleted).toEqual([ben.id]);
    expect(body.changes.Enrollment?.rows).toHaveLength(1);
    expect(body.scope).toBeUndefined();
    // Nothing since: no rows, and the cursor still serves.
    const next = await feed(s.tokens.admin, { cursor: body.cursor });
    expect(next.body.changes).toEqual({});
  });

  it('S17 pages: `more` until the last page, each page one limit long', async () => {
    const cursor = await cursorNow(s.tokens.admin);
    const made = await s.store.createMany(APP, 'Program', Array.from({ length: 5 }, (_, i) => ({ program_name: `P${i}` })), meta);
    const seen: string[] = [];
    let at = cursor;
    let pages = 0;
    for (;;) {
      const { body } = await feed(s.tokens.admin, { cursor: at, limit: 2 });
      pages++;
      seen.push(...ids(body.changes.Program?.rows));
      at = body.cursor;
      if (!body.more) break;
    }
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(ids(made));
  });

  it("S17 holds to the permission table: a coach reads users as a list shows them, a pending account is refused", async () => {
    const cursor = await cursorNow(s.tokens.coach);
    await s.store.update(APP, 'User', s.users.admin.id, { phone: '555-0199' });
    await s.store.update(APP, 'User', s.users.pending.id, { phone: '555-0111' });
    await s.store.update(APP, 'User', s.users.disabled.id, { phone: '555-0122' });
    const coach = (await feed(s.tokens.coach, { cursor })).body;
    expect(coach.changes.User?.rows).toEqual([{ id: s.users.admin.id, email: s.users.admin.email, full_name: s.users.admin.full_name }]);
    // Users a coach does not list (pending, disabled) come as deletions: the tablet drops its copy.
    expect(coach.changes.User?.deleted.sort()).toEqual([s.users.pending.id, s.users.disabled.id].sort());
    const admin = (await feed(s.tokens.admin, { cursor })).body;
    expect(admin.changes.User?.rows.map((r) => r.phone)).toEqual(['555-0199', '555-0111', '555-0122']);

    expect((await feed(s.tokens.pending, { cursor: null })).status).toBe(403);
    expect((await feed(undefined, { cursor: null })).status).toBe(401);
    expect((await feed(s.tokens.admin, { cursor: 42 })).status).toBe(400);
    expect((await feed(s.tokens.admin, { cursor: null, limit: 0 })).status).toBe(400);
  });

  it("S17 within a tablet's scope: rows beyond its sites are not sent, deletions are, and the scope comes back", async () => {
    const scope = { added: [], removed: [], pins: { Participant: [], Cohort: [] } };
    const cursor = await cursorNow(s.tokens.coach, scope);
    const [mine, theirs] = await s.store.createMany(APP, 'Participant', [{ first_name: 'Mine' }, { first_name: 'Theirs' }], meta);
    await s.store.createMany(APP, 'Enrollment', [
      { participant_id: mine.id, cohort_id: cohorts[0].id, enrollment_status: 'active' },
      { participant_id: theirs.id, cohort_id: cohorts[1].id, enrollment_status: 'active' },
    ], meta);
    const [here, there] = await s.store.createMany(APP, 'Session', [{ cohort_id: cohorts[0].id }, { cohort_id: cohorts[1].id }], meta);
    await s.store.delete(APP, 'Session', there.id);
    // An outcome is held through its participant (a participant's enrollments are read for the
    // page's participants only: the outcome's participant is one of them).
    const [myOutcome] = await s.store.createMany(APP, 'Outcome', [{ participant_id: mine.id }, { participant_id: theirs.id }], meta);

    const { body } = await feed(s.tokens.coach, { cursor, scope });
    expect(ids(body.changes.Outcome?.rows)).toEqual([myOutcome.id]);
    expect(body.scope?.siteIds).toEqual([sites[0].id]);
    expect(ids(body.changes.Participant?.rows)).toEqual([mine.id]);
    expect(body.changes.Enrollment?.rows.map((r) => r.cohort_id)).toEqual([cohorts[0].id]);
    expect(ids(body.changes.Session?.rows)).toEqual([here.id]);
    expect(body.changes.Session?.deleted).toEqual([there.id]);

    // A pinned participant (opened beyond the scope) comes too.
    const pinned = await feed(s.tokens.coach, { cursor, scope: { ...scope, pins: { Participant: [theirs.id], Cohort: [] } } });
    expect(ids(pinned.body.changes.Participant?.rows)).toEqual(ids([mine, theirs]));
    // Without a scope: every row the caller may read.
    expect(ids((await feed(s.tokens.coach, { cursor })).body.changes.Participant?.rows)).toEqual(ids([mine, theirs]));
  });

  it('S17 a cursor the server cannot serve is 410 CURSOR_EXPIRED: older than the kept deletions, malformed, or foreign', async () => {
    const cursor = await cursorNow(s.tokens.admin);
    const site = await s.store.create(APP, 'Site', { site_name: 'Short-lived' }, meta);
    await s.store.delete(APP, 'Site', site.id);
    expect((await s.store.pruneChanges(APP, 0)) >= 1).toBe(true);
    const old = await feed(s.tokens.admin, { cursor });
    expect(old.status).toBe(410);
    expect(old.body.code).toBe('CURSOR_EXPIRED');
    expect((await feed(s.tokens.admin, { cursor: 'not-a-cursor' })).body.code).toBe('CURSOR_EXPIRED');
    const fresh = await cursorNow(s.tokens.admin);
    const foreign = fresh.replace(/^1\.[0-9a-f-]{36}\./, '1.00000000-0000-4000-8000-000000000000.');
    expect((await feed(s.tokens.admin, { cursor: foreign })).status).toBe(410);
    const ahead = fresh.replace(/\.(\d+)\.(\d+)$/, (_, t: string, q: string) => `.${BigInt(t) + 1000n}.${q}`);
    expect((await feed(s.tokens.admin, { cursor: ahead })).status).toBe(410);
    expect((await feed(s.tokens.admin, { cursor: fresh })).status).toBe(200);
  });
});
