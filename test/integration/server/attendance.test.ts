/**
 * Issue #23: Sessions and Attendance over HTTP. Who may write them depends on the caller's place in
 * the record's cohort (server/routes/cohort-work.ts); an attendance names a session of its own
 * cohort; one record per (session, participant), kept by the database (docs/design.md S16), so a
 * second create of a pair, however it races, is answered with the first record; a session with
 * attendance cannot be deleted. The last block runs the races on PostgreSQL through two app
 * instances over one database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createAccount } from '../../../server/auth/accounts';
import { createStore } from '../../../server/store/index';
import type { EntityRecord, Store } from '../../../server/store/types';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { SECRET, startTestServer, type TestServer } from './harness';

type Answer = { status: number; body: any };
const json = async (res: Response | Promise<Response>): Promise<Answer> => {
  const r = await res;
  return { status: r.status, body: await r.json() };
};

/** An approved coach of the app, signed in. */
async function coachOf(s: TestServer, email: string): Promise<string> {
  const { user } = await createAccount(s.store, s.appId, {
    email,
    full_name: email,
    role: 'user',
    verified: true,
    fields: { approved: true, requested_access_date: '2026-01-05', coach_type: 'lead_coach' },
  });
  return (await s.signIn(user)).token;
}

/** The people of one suite: an administrator, the cohort's lead and support coaches, a coach of neither. */
interface People {
  admin: string;
  lead: string;
  support: string;
  stranger: string;
}

async function peopleOf(s: TestServer): Promise<People> {
  return {
    admin: s.tokens.admin,
    lead: await coachOf(s, 'lead@example.org'),
    support: await coachOf(s, 'support@example.org'),
    stranger: await coachOf(s, 'stranger@example.org'),
  };
}

let cohortSerial = 0;
/** A cohort led by lead@ and supported by support@ (as the admin stored it, in any case). */
async function cohortOf(s: TestServer, admin: string, coaches = { lead_coach_email: 'Lead@example.org', support_coach_emails: ['x@example.org', 'SUPPORT@example.org'] }) {
  const res = await json(
    s.request('POST', `/api/apps/${s.appId}/entities/Cohort`, {
      token: admin,
      body: { program_id: 'p', site_id: 's', cohort_code: `AT-TN-2026Q${++cohortSerial}`, status: 'active', ...coaches },
    }),
  );
  expect(res.status).toBe(200);
  return res.body as EntityRecord;
}

describe('Sessions and Attendance on PGlite (issue #23)', () => {
  let s: TestServer;
  let who: People;
  let cohort: EntityRecord;
  const E = (entity: string, rest = '') => `/api/apps/${s.appId}/entities/${entity}${rest}`;
  const call = (method: string, path: string, token: string, body?: unknown) => json(s.request(method, path, { token, body }));
  let serial = 0;
  /** A session of `cohortId`, made by the administrator. */
  const sessionOf = async (cohortId: string) => {
    const res = await call('POST', E('Session'), who.admin, { cohort_id: cohortId, session_number: ++serial, topic: 'Goals' });
    expect(res.status).toBe(200);
    return res.body as EntityRecord;
  };
  const mark = (session: EntityRecord, participant: string, rest: Record<string, unknown> = {}) => ({
    session_id: session.id,
    cohort_id: session.cohort_id,
    participant_id: participant,
    status: 'present',
    recorded_by: 'support@example.org',
    recorded_at: '2026-11-22T09:05:00.000Z',
    ...rest,
  });
  const countPair = (session: EntityRecord, participant: string) =>
    s.store.count(s.appId, 'Attendance', { session_id: session.id as string, participant_id: participant });

  beforeAll(async () => {
    s = await startTestServer({ store: 'pglite' });
    who = await peopleOf(s);
    cohort = await cohortOf(s, who.admin);
  });
  afterAll(() => s.close());

  it("lets the cohort's lead coach create, update and delete its sessions", async () => {
    const made = await call('POST', E('Session'), who.lead, { cohort_id: cohort.id, session_number: 1, topic: 'Intro' });
    expect(made).toMatchObject({ status: 200, body: { cohort_id: cohort.id, topic: 'Intro', created_by: 'lead@example.org' } });
    const bulk = await call('POST', E('Session', '/bulk'), who.lead, [{ cohort_id: cohort.id, session_number: 2 }]);
    expect(bulk).toMatchObject({ status: 200, body: [{ session_number: 2 }] });
    const moved = await call('PUT', E('Session', `/${made.body.id}`), who.lead, { topic: 'Introductions', scheduled_at: '2026-11-24T17:00:00.000Z' });
    expect(moved).toMatchObject({ status: 200, body: { topic: 'Introductions' } });
    expect(await call('DELETE', E('Session', `/${made.body.id}`), who.lead)).toEqual({ status: 200, body: { success: true } });
    expect(await s.store.get(s.appId, 'Session', made.body.id)).toBeNull();
  });

  it('refuses sessions to a support coach and to a coach of neither (403), and changes nothing', async () => {
    const session = await sessionOf(cohort.id);
    for (const token of [who.support, who.stranger]) {
      const create = await call('POST', E('Session'), token, { cohort_id: cohort.id, session_number: 9 });
      expect(create).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      expect((await call('POST', E('Session', '/bulk'), token, [{ cohort_id: cohort.id }])).status).toBe(403);
      expect((await call('PUT', E('Session', `/${session.id}`), token, { topic: 'Changed' })).status).toBe(403);
      expect((await call('DELETE', E('Session', `/${session.id}`), token)).status).toBe(403);
    }
    expect(await s.store.get(s.appId, 'Session', session.id)).toMatchObject({ topic: 'Goals' });
    expect(await s.store.count(s.appId, 'Session', { session_number: 9 })).toBe(0);
    // Reads stay open to every approved user.
    expect((await call('GET', E('Session', `/${session.id}`), who.stranger)).status).toBe(200);
  });

  it('lets the support coach create and update attendance; a coach of neither gets 403', async () => {
    const session = await sessionOf(cohort.id);
    const made = await call('POST', E('Attendance'), who.support, mark(session, 'p-support'));
    expect(made).toMatchObject({ status: 200, body: { participant_id: 'p-support', status: 'present', created_by: 'support@example.org' } });
    const late = await call('PUT', E('Attendance', `/${made.body.id}`), who.support, { status: 'late', note: 'Bus', recorded_at: '2026-11-22T09:20:00.000Z' });
    expect(late).toMatchObject({ status: 200, body: { status: 'late', note: 'Bus' } });
    const byLead = await call('PUT', E('Attendance', '/bulk'), who.lead, [{ id: made.body.id, status: 'excused' }]);
    expect(byLead).toMatchObject({ status: 200, body: [{ status: 'excused' }] });

    expect(await call('POST', E('Attendance'), who.stranger, mark(session, 'p-stranger'))).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect((await call('POST', E('Attendance', '/bulk'), who.stranger, [mark(session, 'p-stranger')])).status).toBe(403);
    expect((await call('PUT', E('Attendance', `/${made.body.id}`), who.stranger, { status: 'absent' })).status).toBe(403);
    expect(await countPair(session, 'p-stranger')).toBe(0);

    // No coach deletes attendance, not even the lead; the administrator may.
    for (const token of [who.lead, who.support, who.stranger]) {
      expect((await call('DELETE', E('Attendance', `/${made.body.id}`), token)).status).toBe(403);
    }
    expect(await s.store.get(s.appId, 'Attendance', made.body.id)).toMatchObject({ status: 'excused' });
    expect((await call('DELETE', E('Attendance', `/${made.body.id}`), who.admin)).status).toBe(200);
  });

  it("refuses a coach's change of whose or which session an attendance is (403)", async () => {
    const session = await sessionOf(cohort.id);
    const other = await sessionOf(cohort.id);
    const made = (await call('POST', E('Attendance'), who.support, mark(session, 'p-fixed'))).body;
    for (const token of [who.lead, who.support]) {
      const moves = [{ participant_id: 'p-other' }, { session_id: other.id }, { status: 'late', participant_id: 'p-other' }, { cohort_id: 'elsewhere' }];
      for (const patch of moves) {
        const res = await call('PUT', E('Attendance', `/${made.id}`), token, patch);
        expect(res, JSON.stringify(patch)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
        expect((await call('PUT', E('Attendance', '/bulk'), token, [{ id: made.id, ...patch }])).status).toBe(403);
      }
    }
    expect(await s.store.get(s.appId, 'Attendance', made.id)).toMatchObject({ participant_id: 'p-fixed', session_id: session.id, status: 'present' });
    // The administrator may (the session is of the same cohort).
    const moved = await call('PUT', E('Attendance', `/${made.id}`), who.admin, { session_id: other.id });
    expect(moved).toMatchObject({ status: 200, body: { session_id: other.id } });
  });

  it("refuses attendance naming another cohort's session or none (422), even to the administrator", async () => {
    const elsewhere = await cohortOf(s, who.admin, { lead_coach_email: 'lead@example.org', support_coach_emails: ['support@example.org'] });
    const theirs = await sessionOf(elsewhere.id);
    const ours = await sessionOf(cohort.id);
    for (const token of [who.support, who.admin]) {
      const crossed = await call('POST', E('Attendance'), token, { ...mark(theirs, 'p-x'), cohort_id: cohort.id });
      expect(crossed).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR', field: 'cohort_id' } });
      const missing = await call('POST', E('Attendance', '/bulk'), token, [mark(ours, 'p-y'), { ...mark(ours, 'p-x'), session_id: 'no-such-session' }]);
      expect(missing).toMatchObject({ status: 422, body: { field: 'session_id' } });
    }
    expect(await s.store.count(s.appId, 'Attendance', { participant_id: { $in: ['p-x', 'p-y'] } })).toBe(0);
    // An update may not move a record onto another cohort's session either.
    const made = (await call('POST', E('Attendance'), who.admin, mark(ours, 'p-z'))).body;
    expect(await call('PUT', E('Attendance', `/${made.id}`), who.admin, { session_id: theirs.id })).toMatchObject({ status: 422, body: { field: 'cohort_id' } });
  });

  it('S16: a second create of a pair is answered with the first record', async () => {
    const session = await sessionOf(cohort.id);
    const first = await call('POST', E('Attendance'), who.support, mark(session, 'p-twice', { client_ref: 'tablet-a-1' }));
    expect(first.status).toBe(200);
    const second = await call('POST', E('Attendance'), who.lead, mark(session, 'p-twice', { client_ref: 'tablet-b-1', status: 'absent', note: 'No show' }));
    expect(second).toEqual({ status: 200, body: first.body });
    expect(second.body).toMatchObject({ status: 'present', client_ref: 'tablet-a-1', created_by: 'support@example.org' });
    expect(second.body.note).toBeUndefined();
    expect(await countPair(session, 'p-twice')).toBe(1);
    // The second tablet's re-send of its own create (S3) gets the same answer.
    expect(await call('POST', E('Attendance'), who.lead, mark(session, 'p-twice', { client_ref: 'tablet-b-1', status: 'absent' }))).toEqual(first);
    expect(await countPair(session, 'p-twice')).toBe(1);
  });

  it('S16: 20 parallel creates of one pair are all answered with one record, and one is stored', async () => {
    const session = await sessionOf(cohort.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        json(s.app.request(`http://localhost${E('Attendance')}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${i % 2 ? who.lead : who.support}` },
          body: JSON.stringify(mark(session, 'p-rush', { client_ref: `rush-${i}`, status: i % 2 ? 'late' : 'present' })),
        })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.status)).size).toBe(1);
    expect(await countPair(session, 'p-rush')).toBe(1);
  });

  it('S16: a bulk create naming one pair twice answers both rows with one record', async () => {
    const session = await sessionOf(cohort.id);
    const bulk = await call('POST', E('Attendance', '/bulk'), who.support, [
      mark(session, 'p-dup', { client_ref: 'bulk-1', status: 'late' }),
      mark(session, 'p-one', { client_ref: 'bulk-2' }),
      mark(session, 'p-dup', { client_ref: 'bulk-3', status: 'absent' }),
    ]);
    expect(bulk.status).toBe(200);
    expect(bulk.body).toHaveLength(3);
    expect(bulk.body[2]).toEqual(bulk.body[0]);
    expect(bulk.body[0]).toMatchObject({ participant_id: 'p-dup', status: 'late', client_ref: 'bulk-1' });
    expect(bulk.body[1]).toMatchObject({ participant_id: 'p-one' });
    expect(bulk.body[1].id).not.toBe(bulk.body[0].id);
    expect(await countPair(session, 'p-dup')).toBe(1);
    expect(await countPair(session, 'p-one')).toBe(1);
  });

  it('S16: an update moving an attendance onto a pair another record holds is refused (409)', async () => {
    const session = await sessionOf(cohort.id);
    const other = await sessionOf(cohort.id);
    const held = (await call('POST', E('Attendance'), who.admin, mark(session, 'p-held'))).body;
    const mover = (await call('POST', E('Attendance'), who.admin, mark(other, 'p-held'))).body;
    const onto = await call('PUT', E('Attendance', `/${mover.id}`), who.admin, { session_id: session.id });
    expect(onto).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(onto.body.message).toBe('This participant already has an attendance record for this session');
    const bulk = await call('PUT', E('Attendance', '/bulk'), who.admin, [{ id: held.id, status: 'late' }, { id: mover.id, session_id: session.id }]);
    expect(bulk.status).toBe(409);
    // Neither record changed, not even the bulk's first row.
    expect(await s.store.get(s.appId, 'Attendance', mover.id)).toMatchObject({ session_id: other.id });
    expect(await s.store.get(s.appId, 'Attendance', held.id)).toMatchObject({ status: 'present' });
    expect(await countPair(session, 'p-held')).toBe(1);
  });

  it('keeps a session with attendance in its cohort (409 IN_USE); one without moves', async () => {
    const elsewhere = await cohortOf(s, who.admin);
    const taken = await sessionOf(cohort.id);
    await call('POST', E('Attendance'), who.support, mark(taken, 'p-move'));
    const refused = await call('PUT', E('Session', `/${taken.id}`), who.admin, { cohort_id: elsewhere.id });
    expect(refused).toMatchObject({ status: 409, body: { code: 'IN_USE', extra_data: { attendance_count: 1 } } });
    expect(await s.store.get(s.appId, 'Session', taken.id)).toMatchObject({ cohort_id: cohort.id });
    const empty = await sessionOf(cohort.id);
    expect(await call('PUT', E('Session', `/${empty.id}`), who.admin, { cohort_id: elsewhere.id })).toMatchObject({ status: 200, body: { cohort_id: elsewhere.id } });
  });

  it('refuses deleting a session with attendance (409 IN_USE, attendance_count); allows it once none is left', async () => {
    const session = await sessionOf(cohort.id);
    const a = (await call('POST', E('Attendance'), who.support, mark(session, 'p-1'))).body;
    const b = (await call('POST', E('Attendance'), who.support, mark(session, 'p-2', { status: 'absent' }))).body;
    for (const token of [who.lead, who.admin]) {
      const refused = await call('DELETE', E('Session', `/${session.id}`), token);
      expect(refused).toMatchObject({ status: 409, body: { code: 'IN_USE', extra_data: { attendance_count: 2 } } });
    }
    expect((await call('DELETE', E('Attendance', `/${a.id}`), who.admin)).status).toBe(200);
    const one = await call('DELETE', E('Session', `/${session.id}`), who.lead);
    expect(one).toMatchObject({ status: 409, body: { extra_data: { attendance_count: 1 } } });
    expect(one.body.message).toContain('1 record');
    expect((await call('DELETE', E('Attendance', `/${b.id}`), who.admin)).status).toBe(200);
    expect(await call('DELETE', E('Session', `/${session.id}`), who.lead)).toEqual({ status: 200, body: { success: true } });
  });
});

describe.skipIf(!postgresInstalled)(`S16 on PostgreSQL through two app instances ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  const appId = `att-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  let s: TestServer;
  let second: Store;
  let apps: Array<ReturnType<typeof createApp>> = [];
  let release = () => {};

  beforeAll(async () => {
    const pg = await acquirePostgres();
    release = pg.release;
    s = await startTestServer({ databaseUrl: pg.url, appId });
    // A second server process, as behind a load balancer: its own pool, the same database.
    // The harness's clock too, or its tokens would be judged by today's date.
    second = await createStore({ databaseUrl: pg.url, now: () => s.clock.ms });
    apps = [s.app, createApp({ store: second, appId, jwtSecret: SECRET, now: () => new Date(s.clock.ms), log: () => undefined })];
  });
  afterAll(async () => {
    await second?.close();
    await s?.close();
    release();
  });

  it('S16: parallel creates of several pairs on two servers keep one record per pair, every answer naming it', async () => {
    const who = await peopleOf(s);
    const cohort = await cohortOf(s, who.admin);
    const post = (n: number, path: string, token: string, body: unknown) =>
      json(apps[n % 2].request(`http://localhost/api/apps/${appId}/entities/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }));
    const sessions = await Promise.all([1, 2].map(async (n) => (await post(n, 'Session', who.lead, { cohort_id: cohort.id, session_number: n })).body as EntityRecord));
    const pairs = sessions.flatMap((session) => ['p-a', 'p-b', 'p-c'].map((participant) => ({ session, participant })));
    // 36 creates, 6 per pair, interleaved so each pair's creates reach both servers at once;
    // every third as a one-row bulk.
    const creates = Array.from({ length: 36 }, (_, i) => {
      const { session, participant } = pairs[i % pairs.length];
      const body = { session_id: session.id, cohort_id: cohort.id, participant_id: participant, status: i % 4 ? 'present' : 'late', client_ref: `pg-${i}` };
      const token = i % 2 ? who.support : who.lead;
      return i % 3 === 2
        ? post(i, 'Attendance/bulk', token, [body]).then((a) => ({ status: a.status, body: a.body[0] }))
        : post(i, 'Attendance', token, body);
    });
    const answers = await Promise.all(creates);
    expect(answers.map((a) => a.status)).toEqual(Array(36).fill(200));
    for (const [k, { session, participant }] of pairs.entries()) {
      const mine = answers.filter((_, i) => i % pairs.length === k).map((a) => a.body);
      expect(mine).toHaveLength(6);
      for (const record of mine) expect(record).toMatchObject({ session_id: session.id, participant_id: participant });
      expect(new Set(mine.map((r) => r.id)).size).toBe(1);
      const stored = await second.list(appId, 'Attendance', { q: { session_id: session.id as string, participant_id: participant } });
      expect(stored.map((r) => r.id)).toEqual([mine[0].id]);
    }
    expect(await s.store.count(appId, 'Attendance')).toBe(pairs.length);
  });
});
