import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScopePullAnswer } from '../../../shared/scope-rules';
import type { EntityRecord } from '../../../server/store/types';
import { APP, startTestServer, type TestServer } from './harness';

/**
 * Issue #22.5: `scopePull`, the optional fast path. One request answers for a tablet's whole scope,
 * derived from the server's rows with the rules the tablet uses (shared/scope-rules.ts); only what
 * changed comes for keys the tablet's cursor covers; the permission table holds.
 */
let s: TestServer;
const PATH = `/api/apps/${APP}/functions/scopePull`;
const meta = { by: 'admin@example.org', byId: 'admin' };
let sites: EntityRecord[];
let cohorts: EntityRecord[];
let people: EntityRecord[];

beforeAll(async () => {
  s = await startTestServer();
  const create = (entity: string, rows: Record<string, unknown>[]) => s.store.createMany(APP, entity, rows, meta);
  sites = await create('Site', [0, 1, 2].map((i) => ({ site_name: `Site ${i}` })));
  cohorts = await create('Cohort', [
    { site_id: sites[0].id, cohort_code: 'A', lead_coach_email: 'coach@example.org' },
    { site_id: sites[1].id, cohort_code: 'B', lead_coach_email: 'other@example.org' },
    { site_id: sites[2].id, cohort_code: 'C', lead_coach_email: 'other@example.org', support_coach_emails: ['coach@example.org'] },
  ]);
  people = await create('Participant', Array.from({ length: 9 }, (_, i) => ({ first_name: `P${i}`, last_name: 'Test' })));
  await create('Enrollment', people.map((p, i) => ({ participant_id: p.id, cohort_id: cohorts[i % 3].id, enrollment_status: 'active' })));
  await create('Outcome', people.map((p) => ({ participant_id: p.id, outcome_type: 'employment' })));
  await create('Session', cohorts.map((c) => ({ cohort_id: c.id, session_number: 1 })));
});
afterAll(() => s.close());

const FIRST = { state: { Cohort: { since: null, covered: [] }, Enrollment: { since: null, covered: [] }, Session: { since: null, covered: [] }, Participant: { since: null, covered: [] }, Outcome: { since: null, covered: [] } } };
const ids = (rows: Array<{ id: string }> | undefined) => (rows ?? []).map((r) => r.id).sort();

async function pull(token: string, body: unknown): Promise<{ status: number; body: ScopePullAnswer & { code?: string } }> {
  const res = await s.request('POST', PATH, { token, body });
  return { status: res.status, body: (await res.json()) as ScopePullAnswer & { code?: string } };
}

describe('scopePull (issue #22.5)', () => {
  it("answers a coach's first sync with the sites of their cohorts and every row of them", async () => {
    const { status, body } = await pull(s.tokens.coach, FIRST);
    expect(status).toBe(200);
    expect(body.scope.siteIds).toEqual([sites[0].id, sites[2].id].sort());
    expect(ids(body.entities.Cohort?.rows)).toEqual([cohorts[0].id, cohorts[2].id].sort());
    const mine = people.filter((_, i) => i % 3 !== 1);
    expect(ids(body.entities.Participant?.rows)).toEqual(ids(mine));
    expect(body.entities.Enrollment?.rows).toHaveLength(6);
    expect(body.entities.Outcome?.rows).toHaveLength(6);
    expect(body.entities.Session?.rows).toHaveLength(2);
    expect(body.entities.Participant?.high_water).toMatch(/^\d{4}-/);
    expect(body.entities.Participant?.keys).toEqual(mine.map((p) => `id:${p.id}`).sort());
  });

  it('applies the choice and the pins, and sends only what changed for the keys the tablet covers', async () => {
    const first = (await pull(s.tokens.coach, { ...FIRST, removed: [sites[2].id], pins: { Participant: [people[1].id], Cohort: [] } })).body;
    expect(first.scope.siteIds).toEqual([sites[0].id]);
    expect(ids(first.entities.Participant?.rows)).toEqual(ids([people[0], people[1], people[3], people[6]]));
    // The pinned participant brings its enrollment (cohort B), not cohort B's other participants.
    expect(ids(first.entities.Enrollment?.rows).length).toBe(4);

    const since = first.entities.Participant!.high_water;
    await s.store.update(APP, 'Participant', people[3].id, { case_manager: 'Oscar Medina' });
    const state = Object.fromEntries(
      (['Cohort', 'Enrollment', 'Session', 'Participant', 'Outcome'] as const).map((e) => [e, { since: first.entities[e]!.high_water, covered: first.entities[e]!.keys }]),
    );
    const next = (await pull(s.tokens.coach, { removed: [sites[2].id], pins: { Participant: [people[1].id], Cohort: [] }, state })).body;
    expect(ids(next.entities.Participant?.rows)).toEqual([people[3].id]);
    expect(String(next.entities.Participant?.high_water) > String(since)).toBe(true);
    expect(next.entities.Outcome?.rows).toEqual([]);
    // A site added back: its rows come whole, whatever their dates.
    const grown = (await pull(s.tokens.coach, { pins: { Participant: [people[1].id], Cohort: [] }, state })).body;
    expect(ids(grown.entities.Participant?.rows)).toEqual(ids([people[2], people[5], people[8], people[3]]));
  });

  it('holds to the permission table and refuses bad input', async () => {
    expect((await pull(s.tokens.pending, FIRST)).status).toBe(403);
    expect((await s.request('POST', PATH, { body: FIRST })).status).toBe(401);
    expect((await pull(s.tokens.coach, { state: { Program: { since: null, covered: [] } } })).status).toBe(400);
    expect((await pull(s.tokens.coach, { state: 'all' })).status).toBe(400);
    expect((await pull(s.tokens.coach, { ...FIRST, added: [42] })).status).toBe(400);
    // An administrator's default is every site.
    const admin = (await pull(s.tokens.admin, FIRST)).body;
    expect(admin.scope.siteIds).toEqual(ids(sites));
    expect(admin.entities.Participant?.rows).toHaveLength(9);
  });
});

describe('participantSearch (issue #22.2)', () => {
  const SEARCH = `/api/apps/${APP}/functions/participantSearch`;
  it('finds participants beyond any site with the words in the body, under the permission table and the filter bounds', async () => {
    const res = await s.request('POST', SEARCH, { token: s.tokens.coach, body: { q: { first_name: { $regex: '^p4$', $options: 'i' } }, sort: '-created_date', limit: 5 } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Array<{ id: string }>).map((r) => r.id)).toEqual([people[4].id]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await s.request('POST', SEARCH, { token: s.tokens.pending, body: { q: {} } })).status).toBe(403);
    expect((await s.request('POST', SEARCH, { token: s.tokens.coach, body: { q: {}, limit: 51 } })).status).toBe(400);
    expect((await s.request('POST', SEARCH, { token: s.tokens.coach, body: { q: { $where: 'x' } } })).status).toBe(400);
    expect((await s.request('POST', SEARCH, { token: s.tokens.coach, body: { q: 'lopez' } })).status).toBe(400);
  });
});

