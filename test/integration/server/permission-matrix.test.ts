/**
 * Every endpoint × every kind of caller, against docs/design.md's permission table. Each row builds its
 * own target record, so a row that succeeds cannot hide a later row's failure.
 *
 * Sessions and Attendance (issue #23) depend on the caller's place in the record's cohort: the
 * entity rows use cohort COHORT, which exists and is led and supported by others, so the matrix's
 * coach is refused there for being no coach of it (not for a missing cohort); the rows after them
 * put the coach in a cohort as its lead or support coach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityRecord } from '../../../server/store/types';
import { APP, E, startTestServer, type TestServer } from './harness';

type Caller = 'anonymous' | 'otherApp' | 'disabled' | 'noProfile' | 'pending' | 'rejected' | 'coach' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'otherApp', 'disabled', 'noProfile', 'pending', 'rejected', 'coach', 'admin'];

const CREATE: Record<string, Record<string, unknown>> = {
  Participant: { first_name: 'Ana', last_name: 'Diaz' },
  Cohort: { program_id: 'p', site_id: 's', cohort_code: 'AB-CD-2026Q1', status: 'planned' },
  Enrollment: { participant_id: 'p', cohort_id: 'c', enrollment_status: 'active' },
  Session: { cohort_id: 'c', session_number: 1 },
  Attendance: { session_id: 'set by attendanceBody', cohort_id: 'c', participant_id: 'p', status: 'present' },
  Outcome: { participant_id: 'p', outcome_type: 'employment' },
  Program: { program_name: 'Welding', active: true },
  Site: { site_name: 'Camp 9', site_type: 'fire_camp' },
  User: { email: 'made-up@example.org', role: 'user' },
};
const UPDATE: Record<string, Record<string, unknown>> = {
  Participant: { phone: '555-0101' },
  Cohort: { schedule_notes: 'Mondays' },
  Enrollment: { enrollment_status: 'withdrawn' },
  Session: { topic: 'Safety' },
  Attendance: { status: 'late', note: 'bus was late' },
  Outcome: { note: 'x' },
  Program: { description: 'y' },
  Site: { city: 'Oakland' },
  User: { phone: '555-0102' },
};

const system = { by: null, byId: null };
let serial = 0;
/** The cohort of the entity rows' sessions and attendance: someone else leads and supports it. */
let COHORT = '';
async function cohortOf(s: TestServer, coaches: { lead_coach_email?: string; support_coach_emails?: string[] }): Promise<string> {
  const code = `AB-CD-2026Q2-${++serial}`;
  return (await s.store.create(APP, 'Cohort', { ...CREATE.Cohort, cohort_code: code, ...coaches }, system)).id;
}
/** The coach's place in a cohort, for the rows that give them one. */
const LEADS = { lead_coach_email: 'coach@example.org', support_coach_emails: ['other@example.org'] };
const SUPPORTS = { lead_coach_email: 'other@example.org', support_coach_emails: ['someone@example.org', 'COACH@example.org'] };

/** An attendance body naming a new session of `cohort` (422 otherwise) and a participant of its own. */
async function attendanceBody(s: TestServer, cohort: string): Promise<Record<string, unknown>> {
  const session = await s.store.create(APP, 'Session', { cohort_id: cohort, session_number: ++serial }, system);
  return { ...CREATE.Attendance, session_id: session.id, cohort_id: cohort, participant_id: `p-${++serial}` };
}

/**
 * A create body; cohort codes are unique (issue #12.3), so each created cohort gets its own, and
 * each attendance its own session and participant (one record per pair).
 */
async function fresh(s: TestServer, entity: string): Promise<Record<string, unknown>> {
  if (entity === 'Cohort') return { ...CREATE.Cohort, cohort_code: `AB-CD-2026Q1-${++serial}` };
  if (entity === 'Session') return { ...CREATE.Session, cohort_id: COHORT };
  if (entity === 'Attendance') return attendanceBody(s, COHORT);
  return CREATE[entity];
}

/** A stored record to read, update or delete: made by the store, so no permission is involved. */
async function stored(s: TestServer, entity: string, cohort = COHORT): Promise<EntityRecord> {
  if (entity === 'User') return s.store.create(APP, 'User', { email: `t${Math.random()}@example.org`, role: 'user' }, system);
  if (entity === 'Session') return s.store.create(APP, 'Session', { ...CREATE.Session, cohort_id: cohort }, system);
  if (entity === 'Attendance') return s.store.create(APP, 'Attendance', await attendanceBody(s, cohort), system);
  // Cohort codes are unique in the database too (issue #25.2): each stored cohort gets its own.
  if (entity === 'Cohort') return s.store.create(APP, 'Cohort', await fresh(s, 'Cohort'), system);
  return s.store.create(APP, entity, CREATE[entity], system);
}

type Allowed = (c: Caller) => boolean;
const approved = (...who: Caller[]): Allowed => (c) => who.includes(c);
const registered: Allowed = (c) => !['anonymous', 'otherApp', 'disabled'].includes(c);
const COACH_CREATES = new Set(['Participant', 'Cohort', 'Enrollment']);
const COACH_UPDATES = new Set(['Participant', 'Enrollment']);

interface Row {
  name: string;
  allowed: Allowed;
  /** The status an allowed caller gets (200 unless the call is valid but fails for another reason). */
  ok?: number;
  run(s: TestServer, token: string | undefined, caller: Caller): Promise<Response>;
}

function entityRows(entity: string): Row[] {
  const readers = approved('coach', 'admin');
  const creators: Allowed = entity === 'User' ? () => false : (c) => c === 'admin' || (c === 'coach' && COACH_CREATES.has(entity));
  const updaters: Allowed = (c) => c === 'admin' || (c === 'coach' && COACH_UPDATES.has(entity));
  const target = async (s: TestServer) => (await stored(s, entity)).id;
  return [
    { name: `GET ${entity}`, allowed: readers, run: (s, token) => s.request('GET', `${E(entity)}?sort=-created_date&limit=5`, { token }) },
    { name: `GET ${entity}?q`, allowed: readers, run: (s, token) => s.request('GET', `${E(entity)}?q=${encodeURIComponent('{"id":"x"}')}`, { token }) },
    { name: `GET ${entity}/count`, allowed: readers, run: (s, token) => s.request('GET', E(entity, '/count'), { token }) },
    { name: `GET ${entity}/v2/list`, allowed: readers, run: (s, token) => s.request('GET', E(entity, '/v2/list?limit=2'), { token }) },
    { name: `GET ${entity}/:id`, allowed: readers, run: async (s, token) => s.request('GET', E(entity, `/${await target(s)}`), { token }) },
    { name: `POST ${entity}`, allowed: creators, run: async (s, token) => s.request('POST', E(entity), { token, body: await fresh(s, entity) }) },
    { name: `POST ${entity}/bulk`, allowed: creators, run: async (s, token) => s.request('POST', E(entity, '/bulk'), { token, body: [await fresh(s, entity)] }) },
    { name: `PUT ${entity}/:id`, allowed: updaters, run: async (s, token) => s.request('PUT', E(entity, `/${await target(s)}`), { token, body: UPDATE[entity] }) },
    {
      name: `PUT ${entity}/bulk`,
      allowed: updaters,
      run: async (s, token) => s.request('PUT', E(entity, '/bulk'), { token, body: [{ id: await target(s), ...UPDATE[entity] }] }),
    },
    { name: `DELETE ${entity}/:id`, allowed: approved('admin'), run: async (s, token) => s.request('DELETE', E(entity, `/${await target(s)}`), { token }) },
  ];
}

/**
 * Issue #23: the same endpoints with the coach in the record's cohort. `place` is the coach's
 * place in it; `allowed` who may, besides the administrator.
 */
function cohortWorkRows(): Row[] {
  const coachToo = approved('coach', 'admin');
  const adminOnly = approved('admin');
  const write = (name: string, place: typeof LEADS, allowed: Allowed, run: (s: TestServer, token: string | undefined, cohort: string) => Promise<Response>): Row => ({
    name,
    allowed,
    run: async (s, token) => run(s, token, await cohortOf(s, place)),
  });
  const put = (entity: string, body: Record<string, unknown>) => async (s: TestServer, token: string | undefined, cohort: string) =>
    s.request('PUT', E(entity, `/${(await stored(s, entity, cohort)).id}`), { token, body });
  const putBulk = (entity: string, body: Record<string, unknown>) => async (s: TestServer, token: string | undefined, cohort: string) =>
    s.request('PUT', E(entity, '/bulk'), { token, body: [{ id: (await stored(s, entity, cohort)).id, ...body }] });
  const del = (entity: string) => async (s: TestServer, token: string | undefined, cohort: string) =>
    s.request('DELETE', E(entity, `/${(await stored(s, entity, cohort)).id}`), { token });
  const postSession = (s: TestServer, token: string | undefined, cohort: string) =>
    s.request('POST', E('Session'), { token, body: { ...CREATE.Session, cohort_id: cohort } });
  const postAttendance = async (s: TestServer, token: string | undefined, cohort: string) =>
    s.request('POST', E('Attendance'), { token, body: await attendanceBody(s, cohort) });
  return [
    write('POST Session, coach leads the cohort', LEADS, coachToo, postSession),
    write('POST Session/bulk, coach leads the cohort', LEADS, coachToo, (s, token, cohort) =>
      s.request('POST', E('Session', '/bulk'), { token, body: [{ ...CREATE.Session, cohort_id: cohort }] })),
    write('PUT Session/:id, coach leads the cohort', LEADS, coachToo, put('Session', UPDATE.Session)),
    write('PUT Session/bulk, coach leads the cohort', LEADS, coachToo, putBulk('Session', UPDATE.Session)),
    write('DELETE Session/:id, coach leads the cohort', LEADS, coachToo, del('Session')),
    write('POST Session, coach supports the cohort', SUPPORTS, adminOnly, postSession),
    write('PUT Session/:id, coach supports the cohort', SUPPORTS, adminOnly, put('Session', UPDATE.Session)),
    write('DELETE Session/:id, coach supports the cohort', SUPPORTS, adminOnly, del('Session')),
    write('PUT Session/:id to the cohort the coach leads, from another', SUPPORTS, adminOnly, async (s, token, cohort) => {
      const led = await cohortOf(s, LEADS);
      return s.request('PUT', E('Session', `/${(await stored(s, 'Session', cohort)).id}`), { token, body: { cohort_id: led } });
    }),
    write('PUT Session/:id from the cohort the coach leads to another', LEADS, adminOnly, (s, token, cohort) =>
      put('Session', { cohort_id: COHORT })(s, token, cohort)),
    write('POST Attendance, coach leads the cohort', LEADS, coachToo, postAttendance),
    write('POST Attendance, coach supports the cohort', SUPPORTS, coachToo, postAttendance),
    write('POST Attendance/bulk, coach supports the cohort', SUPPORTS, coachToo, async (s, token, cohort) =>
      s.request('POST', E('Attendance', '/bulk'), { token, body: [await attendanceBody(s, cohort)] })),
    write('PUT Attendance/:id, coach leads the cohort', LEADS, coachToo, put('Attendance', UPDATE.Attendance)),
    write('PUT Attendance/:id, coach supports the cohort', SUPPORTS, coachToo, put('Attendance', UPDATE.Attendance)),
    write('PUT Attendance/bulk, coach supports the cohort', SUPPORTS, coachToo, putBulk('Attendance', UPDATE.Attendance)),
    write('PUT Attendance/:id participant_id, coach supports the cohort', SUPPORTS, adminOnly, put('Attendance', { participant_id: 'someone-else' })),
    write('PUT Attendance/:id session_id, coach leads the cohort', LEADS, adminOnly, async (s, token, cohort) => {
      const other = await s.store.create(APP, 'Session', { cohort_id: cohort, session_number: 99 }, system);
      return put('Attendance', { session_id: other.id })(s, token, cohort);
    }),
    write('DELETE Attendance/:id, coach leads the cohort', LEADS, adminOnly, del('Attendance')),
    write('DELETE Attendance/:id, coach supports the cohort', SUPPORTS, adminOnly, del('Attendance')),
  ];
}

function auditEventRows(): Row[] {
  const admin = approved('admin');
  const first = '000000000000000000000001'; // the harness's accounts are the first events
  const get = (path: string): Row['run'] => (s, token) => s.request('GET', E('AuditEvent', path), { token });
  const write = (method: string, path: string): Row['run'] => (s, token) => s.request(method, E('AuditEvent', path), { token, body: method === 'DELETE' ? undefined : {} });
  return [
    { name: 'GET AuditEvent', allowed: admin, run: get('?sort=-created_date&limit=5') },
    { name: 'GET AuditEvent?q', allowed: admin, run: get(`?q=${encodeURIComponent('{"action":"create"}')}`) },
    { name: 'GET AuditEvent/count', allowed: admin, run: get('/count') },
    { name: 'GET AuditEvent/v2/list', allowed: admin, run: get('/v2/list?limit=2') },
    { name: 'GET AuditEvent/:id', allowed: admin, run: get(`/${first}`) },
    { name: 'POST AuditEvent', allowed: admin, ok: 405, run: write('POST', '') },
    { name: 'POST AuditEvent/bulk', allowed: admin, ok: 405, run: write('POST', '/bulk') },
    { name: 'PUT AuditEvent/:id', allowed: admin, ok: 405, run: write('PUT', `/${first}`) },
    { name: 'DELETE AuditEvent/:id', allowed: admin, ok: 405, run: write('DELETE', `/${first}`) },
    {
      name: 'POST functions/auditExport',
      allowed: approved('coach', 'admin'),
      run: (s, token) => s.request('POST', `/api/apps/${APP}/functions/auditExport`, { token, body: { kind: 'participants', row_count: 3 } }),
    },
  ];
}

const ROWS: Row[] = [
  ...['Participant', 'Cohort', 'Enrollment', 'Session', 'Attendance', 'Outcome', 'Program', 'Site', 'User'].flatMap(entityRows),
  ...cohortWorkRows(),
  { name: 'GET User/me', allowed: registered, run: (s, token) => s.request('GET', E('User', '/me'), { token }) },
  { name: 'PUT User/me', allowed: registered, run: (s, token) => s.request('PUT', E('User', '/me'), { token, body: { bio: 'hello' } }) },
  {
    name: 'PUT Enrollment/:id other field',
    allowed: approved('admin'),
    run: async (s, token) => {
      const id = (await s.store.create(APP, 'Enrollment', CREATE.Enrollment, { by: null, byId: null })).id;
      return s.request('PUT', E('Enrollment', `/${id}`), { token, body: { cohort_id: 'other' } });
    },
  },
  {
    name: 'PUT User/:id approval of another user',
    allowed: approved('admin'),
    run: (s, token) => s.request('PUT', E('User', `/${s.users.pending.id}`), { token, body: { approved: false, role: 'user' } }),
  },
  {
    name: 'PUT User/:own-id role',
    allowed: () => false,
    run: (s, token, caller) => {
      const id = caller in s.users ? s.users[caller as keyof TestServer['users']].id : s.users.admin.id;
      return s.request('PUT', E('User', `/${id}`), { token, body: { role: 'admin' } });
    },
  },
  {
    name: 'POST auth/change-password (wrong current password)',
    allowed: registered,
    ok: 400,
    run: (s, token, caller) => {
      const id = caller in s.users ? s.users[caller as keyof TestServer['users']].id : 'x';
      return s.request('POST', `/api/apps/${APP}/auth/change-password`, { token, body: { user_id: id, current_password: 'nope-nope', new_password: 'new-password-1' } });
    },
  },
  {
    name: 'POST users/invite-user',
    allowed: approved('admin'),
    run: (s, token) => s.request('POST', `/api/apps/${APP}/users/invite-user`, { token, body: { user_email: `inv${Math.random()}@example.org`, role: 'user' } }),
  },
  // Issue #26 (S19): the audit trail, read by administrators only; writes are 405 for them.
  ...auditEventRows(),
  { name: 'POST app-logs', allowed: registered, run: (s, token) => s.request('POST', `/api/app-logs/${APP}/log-user-in-app/Dashboard`, { token }) },
  { name: 'GET app-logs', allowed: approved('admin'), run: (s, token) => s.request('GET', `/api/app-logs/${APP}`, { token }) },
  { name: 'GET public-settings', allowed: registered, run: (s, token) => s.request('GET', `/api/apps/public/prod/public-settings/by-id/${APP}`, { token }) },
];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  COHORT = await cohortOf(s, { lead_coach_email: 'other@example.org', support_coach_emails: ['someone@example.org'] });
});
afterAll(() => s.close());

function expected(row: Row, caller: Caller): number {
  if (row.allowed(caller)) return row.ok ?? 200;
  if (caller === 'anonymous') return row.name === 'GET public-settings' ? 403 : 401;
  return 403;
}

describe('permission matrix', () => {
  it.each(ROWS.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const got: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const caller of CALLERS) {
      const token = caller === 'anonymous' ? undefined : s.tokens[caller];
      const res = await row.run(s, token, caller);
      got[caller] = res.status;
      want[caller] = expected(row, caller);
      const body = (await res.json()) as { message?: string; code?: string; extra_data?: { reason?: string } };
      if (res.status >= 400) expect(typeof body.message === 'string' && typeof body.code === 'string', `${row.name} as ${caller}`).toBe(true);
      if (caller === 'otherApp' || caller === 'disabled') expect(body.extra_data?.reason).toBe('user_not_registered');
    }
    expect(got).toEqual(want);
  });
});
