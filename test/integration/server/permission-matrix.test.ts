/**
 * Every endpoint × every kind of caller, against docs/design.md's permission table. Each row builds its
 * own target record, so a row that succeeds cannot hide a later row's failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, E, startTestServer, type TestServer } from './harness';

type Caller = 'anonymous' | 'otherApp' | 'disabled' | 'noProfile' | 'pending' | 'rejected' | 'coach' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'otherApp', 'disabled', 'noProfile', 'pending', 'rejected', 'coach', 'admin'];

const CREATE: Record<string, Record<string, unknown>> = {
  Participant: { first_name: 'Ana', last_name: 'Diaz' },
  Cohort: { program_id: 'p', site_id: 's', cohort_code: 'AB-CD-2026Q1', status: 'planned' },
  Enrollment: { participant_id: 'p', cohort_id: 'c', enrollment_status: 'active' },
  Session: { cohort_id: 'c', session_number: 1 },
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
  Outcome: { note: 'x' },
  Program: { description: 'y' },
  Site: { city: 'Oakland' },
  User: { phone: '555-0102' },
};

/** A create body; cohort codes are unique (issue #12.3), so each created cohort gets its own. */
let serial = 0;
function fresh(entity: string): Record<string, unknown> {
  return entity === 'Cohort' ? { ...CREATE.Cohort, cohort_code: `AB-CD-2026Q1-${++serial}` } : CREATE[entity];
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
  const target = async (s: TestServer) =>
    entity === 'User'
      ? (await s.store.create(APP, 'User', { email: `t${Math.random()}@example.org`, role: 'user' }, { by: null, byId: null })).id
      : (await s.store.create(APP, entity, CREATE[entity], { by: null, byId: null })).id;
  return [
    { name: `GET ${entity}`, allowed: readers, run: (s, token) => s.request('GET', `${E(entity)}?sort=-created_date&limit=5`, { token }) },
    { name: `GET ${entity}?q`, allowed: readers, run: (s, token) => s.request('GET', `${E(entity)}?q=${encodeURIComponent('{"id":"x"}')}`, { token }) },
    { name: `GET ${entity}/count`, allowed: readers, run: (s, token) => s.request('GET', E(entity, '/count'), { token }) },
    { name: `GET ${entity}/v2/list`, allowed: readers, run: (s, token) => s.request('GET', E(entity, '/v2/list?limit=2'), { token }) },
    { name: `GET ${entity}/:id`, allowed: readers, run: async (s, token) => s.request('GET', E(entity, `/${await target(s)}`), { token }) },
    { name: `POST ${entity}`, allowed: creators, run: (s, token) => s.request('POST', E(entity), { token, body: fresh(entity) }) },
    { name: `POST ${entity}/bulk`, allowed: creators, run: (s, token) => s.request('POST', E(entity, '/bulk'), { token, body: [fresh(entity)] }) },
    { name: `PUT ${entity}/:id`, allowed: updaters, run: async (s, token) => s.request('PUT', E(entity, `/${await target(s)}`), { token, body: UPDATE[entity] }) },
    {
      name: `PUT ${entity}/bulk`,
      allowed: updaters,
      run: async (s, token) => s.request('PUT', E(entity, '/bulk'), { token, body: [{ id: await target(s), ...UPDATE[entity] }] }),
    },
    { name: `DELETE ${entity}/:id`, allowed: approved('admin'), run: async (s, token) => s.request('DELETE', E(entity, `/${await target(s)}`), { token }) },
  ];
}

const ROWS: Row[] = [
  ...['Participant', 'Cohort', 'Enrollment', 'Session', 'Outcome', 'Program', 'Site', 'User'].flatMap(entityRows),
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
  { name: 'POST app-logs', allowed: registered, run: (s, token) => s.request('POST', `/api/app-logs/${APP}/log-user-in-app/Dashboard`, { token }) },
  { name: 'GET app-logs', allowed: approved('admin'), run: (s, token) => s.request('GET', `/api/app-logs/${APP}`, { token }) },
  { name: 'GET public-settings', allowed: registered, run: (s, token) => s.request('GET', `/api/apps/public/prod/public-settings/by-id/${APP}`, { token }) },
];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
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
