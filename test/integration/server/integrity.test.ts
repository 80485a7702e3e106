import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E, startTestServer, type TestServer } from './harness';

/** Issue #12.3 and #12.4: unique cohort codes, no deleting a program or site that cohorts use. */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const json = async (res: Response | Promise<Response>) => {
  const r = await res;
  return { status: r.status, body: (await r.json()) as any };
};

async function make(entity: string, body: Record<string, unknown>) {
  const res = await json(s.request('POST', E(entity), { token: s.tokens.admin, body }));
  expect(res.status).toBe(200);
  return res.body as { id: string } & Record<string, unknown>;
}

describe('cohort_code is unique', () => {
  it('refuses a create, bulk create or update repeating an existing code (any case) with 409 naming the field', async () => {
    const taken = await make('Cohort', { program_id: 'p', site_id: 's', cohort_code: 'FL-SQ-2026Q1', status: 'planned' });
    const coach = s.tokens.coach;

    const again = await json(s.request('POST', E('Cohort'), { token: coach, body: { program_id: 'p', site_id: 's', cohort_code: ' fl-sq-2026q1 ' } }));
    expect(again).toMatchObject({ status: 409, body: { code: 'DUPLICATE_VALUE', field: 'cohort_code' } });
    expect(again.body.message).toBe('A cohort with the code fl-sq-2026q1 already exists. Cohort codes must be unique.');

    const bulk = await json(s.request('POST', E('Cohort', '/bulk'), {
      token: s.tokens.admin,
      body: [{ cohort_code: 'NEW-1' }, { cohort_code: 'new-1' }],
    }));
    expect(bulk).toMatchObject({ status: 409, body: { field: 'cohort_code' } });

    const other = await make('Cohort', { program_id: 'p', site_id: 's', cohort_code: 'FL-SQ-2026Q1-2' });
    const rename = await json(s.request('PUT', E('Cohort', `/${other.id}`), { token: s.tokens.admin, body: { cohort_code: 'FL-SQ-2026Q1' } }));
    expect(rename).toMatchObject({ status: 409, body: { field: 'cohort_code' } });

    // Nothing was written by the refused requests.
    const all = await json(s.request('GET', E('Cohort'), { token: s.tokens.admin }));
    expect(all.body.map((c: { cohort_code: string }) => c.cohort_code).sort()).toEqual(['FL-SQ-2026Q1', 'FL-SQ-2026Q1-2']);

    // A cohort keeps its own code through an update, and a code that looks like a pattern is literal.
    const same = await json(s.request('PUT', E('Cohort', `/${taken.id}`), { token: s.tokens.admin, body: { cohort_code: 'FL-SQ-2026Q1', capacity: 15 } }));
    expect(same.status).toBe(200);
    expect((await json(s.request('POST', E('Cohort'), { token: coach, body: { cohort_code: 'FL.SQ.2026Q1' } }))).status).toBe(200);
    expect((await json(s.request('POST', E('Cohort'), { token: coach, body: { cohort_code: 'FL-SQ-2026Q1-2x' } }))).status).toBe(200);
  });
});

describe('programs and sites in use', () => {
  it('refuses deleting a program or site that cohorts use, naming how many; allows it once none do', async () => {
    const program = await make('Program', { program_name: 'Budgeting' });
    const site = await make('Site', { site_name: 'Folsom' });
    const c1 = await make('Cohort', { program_id: program.id, site_id: site.id, cohort_code: 'IU-1' });
    await make('Cohort', { program_id: program.id, site_id: 'elsewhere', cohort_code: 'IU-2' });

    const p = await json(s.request('DELETE', E('Program', `/${program.id}`), { token: s.tokens.admin }));
    expect(p).toMatchObject({ status: 409, body: { code: 'IN_USE', extra_data: { cohort_count: 2 } } });
    expect(p.body.message).toBe('2 cohorts use this program. Move or delete them first.');
    const st = await json(s.request('DELETE', E('Site', `/${site.id}`), { token: s.tokens.admin }));
    expect(st).toMatchObject({ status: 409, body: { code: 'IN_USE', extra_data: { cohort_count: 1 } } });
    expect(st.body.message).toBe('1 cohort uses this site. Move or delete it first.');
    expect((await json(s.request('GET', E('Program', `/${program.id}`), { token: s.tokens.admin }))).status).toBe(200);

    expect((await json(s.request('DELETE', E('Cohort', `/${c1.id}`), { token: s.tokens.admin }))).status).toBe(200);
    expect((await json(s.request('DELETE', E('Site', `/${site.id}`), { token: s.tokens.admin }))).body).toEqual({ success: true });
  });
});

describe('the coach directory', () => {
  it('lists approved users and admins only to coaches (the Lead Coach picker, issue #12.8)', async () => {
    const emails = async (path: string) => ((await json(s.request('GET', path, { token: s.tokens.coach }))).body as { email: string }[]).map((u) => u.email).sort();
    const expected = [s.users.admin.email, s.users.coach.email].sort();
    expect(await emails(E('User'))).toEqual(expected);
    expect(((await json(s.request('GET', E('User', '/v2/list?limit=50'), { token: s.tokens.coach }))).body.items as { email: string }[]).map((u) => u.email).sort()).toEqual(expected);
    expect((await json(s.request('GET', E('User', '/count'), { token: s.tokens.coach }))).body).toEqual({ count: 2 });
    // Admins still see everyone.
    const all = (await json(s.request('GET', E('User'), { token: s.tokens.admin }))).body as { email: string }[];
    expect(all.map((u) => u.email)).toEqual(expect.arrayContaining([s.users.pending.email, s.users.rejected.email]));
  });
});
