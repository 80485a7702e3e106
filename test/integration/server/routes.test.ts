import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, E, startTestServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const json = async (res: Response | Promise<Response>) => {
  const r = await res;
  return { status: r.status, body: (await r.json()) as any };
};

describe('entity CRUD', () => {
  it('creates, reads, merges updates, counts and deletes', async () => {
    const admin = s.tokens.admin;
    const created = await json(s.request('POST', E('Program'), { token: admin, body: { program_name: 'Welding', active: true, id: 'mine', created_by: 'x' } }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ program_name: 'Welding', active: true, created_by: 'admin@example.org', created_by_id: s.users.admin.id });
    expect(created.body.id).not.toBe('mine');
    const id = created.body.id;

    const updated = await json(s.request('PUT', E('Program', `/${id}`), { token: admin, body: { description: 'Metal work' } }));
    expect(updated.body).toMatchObject({ program_name: 'Welding', description: 'Metal work' });
    expect(updated.body.updated_date > created.body.updated_date).toBe(true);

    expect((await json(s.request('GET', E('Program', `/${id}`), { token: admin }))).body.description).toBe('Metal work');
    expect((await json(s.request('GET', E('Program', '/count'), { token: admin }))).body).toEqual({ count: 1 });
    expect((await json(s.request('DELETE', E('Program', `/${id}`), { token: admin }))).body).toEqual({ success: true });
    const gone = await json(s.request('GET', E('Program', `/${id}`), { token: admin }));
    expect(gone).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect((await json(s.request('DELETE', E('Program', `/${id}`), { token: admin }))).status).toBe(404);
  });

  it('type-checks known fields with a 422 naming the field, and keeps unknown ones', async () => {
    const t = s.tokens.coach;
    const noName = await json(s.request('POST', E('Participant'), { token: t, body: { last_name: 'Diaz' } }));
    expect(noName).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR', field: 'first_name' } });
    expect(noName.body.message).toMatch(/first_name/);
    const badEnum = await json(s.request('POST', E('Participant'), { token: t, body: { first_name: 'A', last_name: 'B', custody_status: 'gone' } }));
    expect(badEnum).toMatchObject({ status: 422, body: { field: 'custody_status' } });
    const ok = await json(s.request('POST', E('Participant'), { token: t, body: { first_name: 'A', last_name: 'B', age: null, favourite_colour: 'teal', client_ref: 'c-1' } }));
    expect(ok.body).toMatchObject({ favourite_colour: 'teal', age: null, client_ref: 'c-1' });
    const badUpdate = await json(s.request('PUT', E('Participant', `/${ok.body.id}`), { token: t, body: { age: 'forty' } }));
    expect(badUpdate).toMatchObject({ status: 422, body: { field: 'age' } });
  });

  it('filters with q (decoding + as a space), sorts, pages and projects fields', async () => {
    const t = s.tokens.admin;
    await json(s.request('POST', E('Site', '/bulk'), {
      token: t,
      body: [
        { site_name: 'North Camp', site_type: 'fire_camp', region: 'North' },
        { site_name: 'Bay Center', site_type: 'community', region: 'Bay Area' },
        { site_name: 'Alpha Prison', site_type: 'prison', region: 'North' },
      ],
    }));
    // axios encodes spaces as '+' and leaves ':' and ',' alone.
    const bay = await json(s.request('GET', `${E('Site')}?q=%7B%22region%22:%22Bay+Area%22%7D`, { token: t }));
    expect(bay.body.map((r: any) => r.site_name)).toEqual(['Bay Center']);
    const asc = await json(s.request('GET', `${E('Site')}?sort=%2Bsite_name&fields=site_name,region`, { token: t }));
    expect(asc.body.map((r: any) => r.site_name)).toEqual(['Alpha Prison', 'Bay Center', 'North Camp']);
    expect(Object.keys(asc.body[0]).sort()).toEqual(['id', 'region', 'site_name']);
    const desc = await json(s.request('GET', `${E('Site')}?sort=-site_name&limit=1&skip=1`, { token: t }));
    expect(desc.body.map((r: any) => r.site_name)).toEqual(['Bay Center']);
    const byDefault = await json(s.request('GET', E('Site'), { token: t }));
    expect(byDefault.body.map((r: any) => r.site_name)).toEqual(['Alpha Prison', 'Bay Center', 'North Camp']); // -created_date
    const ops = await json(s.request('GET', `${E('Site')}?q=${encodeURIComponent(JSON.stringify({ $or: [{ site_type: 'prison' }, { site_name: { $regex: '^North' } }] }))}`, { token: t }));
    expect(ops.body).toHaveLength(2);
    const counted = await json(s.request('GET', `${E('Site', '/count')}?q=${encodeURIComponent('{"region":"North"}')}`, { token: t }));
    expect(counted.body).toEqual({ count: 2 });
  });

  it('pages through v2/list with an opaque cursor that pins q, sort and fields', async () => {
    const t = s.tokens.admin;
    const rows = Array.from({ length: 230 }, (_, i) => ({ cohort_id: 'c-1', session_number: i + 1, topic: `T${i}` }));
    expect((await json(s.request('POST', E('Session', '/bulk'), { token: t, body: rows }))).body).toHaveLength(230);
    const first = await json(s.request('GET', `${E('Session', '/v2/list')}?sort=session_number&fields=session_number`, { token: t }));
    expect(first.body.items).toHaveLength(100); // default page
    expect(first.body.has_more).toBe(true);
    const seen: number[] = first.body.items.map((r: any) => r.session_number);
    let cursor = first.body.next_cursor;
    while (cursor) {
      const page = await json(s.request('GET', `${E('Session', '/v2/list')}?limit=100&cursor=${cursor}`, { token: t }));
      seen.push(...page.body.items.map((r: any) => r.session_number));
      cursor = page.body.next_cursor;
      if (!page.body.has_more) expect(cursor).toBeNull();
    }
    expect(seen).toEqual(rows.map((r) => r.session_number));
    const mixed = await json(s.request('GET', `${E('Session', '/v2/list')}?sort=-session_number&cursor=${first.body.next_cursor}`, { token: t }));
    expect(mixed).toMatchObject({ status: 400, body: { code: 'CURSOR_MISMATCH' } });
    const same = await json(s.request('GET', `${E('Session', '/v2/list')}?sort=session_number&cursor=${first.body.next_cursor}`, { token: t }));
    expect(same.body.items[0].session_number).toBe(101);
    const bad = await json(s.request('GET', `${E('Session', '/v2/list')}?cursor=abc`, { token: t }));
    expect(bad).toMatchObject({ status: 400, body: { code: 'INVALID_CURSOR' } });
  });

  it('bulk-updates all or nothing, at most 500', async () => {
    const t = s.tokens.admin;
    const [a, b] = (await json(s.request('POST', E('Program', '/bulk'), { token: t, body: [{ program_name: 'A' }, { program_name: 'B' }] }))).body;
    const ok = await json(s.request('PUT', E('Program', '/bulk'), { token: t, body: [{ id: a.id, active: false }, { id: b.id, active: true }] }));
    expect(ok.body.map((r: any) => [r.program_name, r.active])).toEqual([['A', false], ['B', true]]);
    const missing = await json(s.request('PUT', E('Program', '/bulk'), { token: t, body: [{ id: a.id, active: true }, { id: 'nope', active: true }] }));
    expect(missing.status).toBe(404);
    expect((await json(s.request('GET', E('Program', `/${a.id}`), { token: t }))).body.active).toBe(false);
    const tooMany = await json(s.request('PUT', E('Program', '/bulk'), { token: t, body: Array.from({ length: 501 }, () => ({ id: a.id })) }));
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'TOO_MANY' } });
    const badOne = await json(s.request('POST', E('Program', '/bulk'), { token: t, body: [{ program_name: 'C' }, { active: 'yes' }] }));
    expect(badOne).toMatchObject({ status: 422, body: { field: 'active' } });
    expect((await json(s.request('GET', `${E('Program')}?q=${encodeURIComponent('{"program_name":"C"}')}`, { token: t }))).body).toEqual([]);
  });
});

describe('routing and bad input', () => {
  it('answers unknown apps, entities and API paths with JSON 404s', async () => {
    expect(await json(s.request('GET', `/api/apps/other/entities/Site`, { token: s.tokens.admin }))).toMatchObject({ status: 404, body: { code: 'APP_NOT_FOUND' } });
    expect(await json(s.request('GET', E('Inmate'), { token: s.tokens.admin }))).toMatchObject({ status: 404, body: { code: 'ENTITY_NOT_FOUND' } });
    expect(await json(s.request('GET', '/api/nothing/here'))).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await json(s.request('PATCH', E('Site', '/update-many'), { token: s.tokens.admin, body: {} }))).toMatchObject({ status: 404 });
  });

  it('refuses malformed JSON and bodies over 1 MB', async () => {
    const t = s.tokens.admin;
    expect(await json(s.request('POST', E('Site'), { token: t, raw: '{"site_name":' }))).toMatchObject({ status: 400, body: { code: 'INVALID_JSON' } });
    const big = JSON.stringify({ site_name: 'x', notes: 'y'.repeat(1024 * 1024) });
    expect(await json(s.request('POST', E('Site'), { token: t, raw: big }))).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('does not let /:id capture count, bulk, v2/list or me', async () => {
    const t = s.tokens.coach;
    expect((await json(s.request('GET', E('Cohort', '/count'), { token: t }))).body).toHaveProperty('count');
    expect((await json(s.request('GET', E('Cohort', '/v2/list'), { token: t }))).body).toHaveProperty('items');
    expect((await json(s.request('GET', E('User', '/me'), { token: t }))).body.email).toBe('coach@example.org');
    expect((await json(s.request('POST', E('Cohort', '/bulk'), { token: t, body: [] }))).body).toEqual([]);
  });
});

describe('users and me', () => {
  it('shows coaches only id, email and full_name of users, and no filtering on the rest', async () => {
    const list = await json(s.request('GET', `${E('User')}?fields=role,email`, { token: s.tokens.coach }));
    expect(list.status).toBe(200);
    for (const u of list.body) expect(Object.keys(u).every((k) => ['id', 'email'].includes(k))).toBe(true);
    const all = await json(s.request('GET', E('User'), { token: s.tokens.coach }));
    expect(Object.keys(all.body[0]).sort()).toEqual(['email', 'full_name', 'id']);
    const one = await json(s.request('GET', E('User', `/${s.users.admin.id}`), { token: s.tokens.coach }));
    expect(Object.keys(one.body).sort()).toEqual(['email', 'full_name', 'id']);
    const probe = await json(s.request('GET', `${E('User')}?q=${encodeURIComponent('{"role":"admin"}')}`, { token: s.tokens.coach }));
    expect(probe.status).toBe(403);
    const sorted = await json(s.request('GET', `${E('User')}?sort=-approved`, { token: s.tokens.coach }));
    expect(sorted.status).toBe(403);
    const admins = await json(s.request('GET', `${E('User')}?sort=-created_date`, { token: s.tokens.admin }));
    expect(admins.body[0]).toHaveProperty('role');
  });

  it('PUT me keeps profile fields and silently drops role, approval, email and id', async () => {
    const t = s.tokens.pending;
    const res = await json(s.request('PUT', E('User', '/me'), {
      token: t,
      body: { bio: 'Ten years of mentoring', years_experience: 10, role: 'admin', approved: true, approval_date: '2026-01-01', approved_by: 'me', email: 'x@y.org', id: 'z', is_verified: false },
    }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bio: 'Ten years of mentoring', years_experience: 10, role: 'user', approved: false, email: 'pending@example.org', id: s.users.pending.id, is_verified: true });
    expect(res.body.approval_date).toBeUndefined();
    const bad = await json(s.request('PUT', E('User', '/me'), { token: t, body: { years_experience: 'ten' } }));
    expect(bad).toMatchObject({ status: 422, body: { field: 'years_experience' } });
  });

  it('lets an admin approve others but not change their own role, or anyone\'s email', async () => {
    const t = s.tokens.admin;
    const approve = await json(s.request('PUT', E('User', `/${s.users.noProfile.id}`), { token: t, body: { approved: true, approval_date: '2026-11-22', approved_by: 'admin@example.org', role: 'user' } }));
    expect(approve.body).toMatchObject({ approved: true, role: 'user' });
    expect((await json(s.request('PUT', E('User', `/${s.users.admin.id}`), { token: t, body: { role: 'user' } }))).status).toBe(403);
    expect((await json(s.request('PUT', E('User', `/${s.users.coach.id}`), { token: t, body: { email: 'new@example.org' } }))).body).toMatchObject({ field: 'email' });
    expect((await json(s.request('POST', E('User'), { token: t, body: { email: 'n@example.org' } }))).status).toBe(403);
    // Reset for the other tests.
    await s.store.update(APP, 'User', s.users.noProfile.id, { approved: null, approval_date: null, approved_by: null });
  });
});

describe('public settings and app logs', () => {
  const path = `/api/apps/public/prod/public-settings/by-id/${APP}`;
  it('answers only signed-in users of this app', async () => {
    expect(await json(s.request('GET', path, { token: s.tokens.coach }))).toEqual({ status: 200, body: { id: APP, public_settings: 'private_with_login' } });
    expect(await json(s.request('GET', path, { token: s.tokens.pending }))).toMatchObject({ status: 200 });
    expect(await json(s.request('GET', path))).toMatchObject({ status: 403, body: { extra_data: { reason: 'auth_required' } } });
    expect(await json(s.request('GET', path, { token: 'not.a.token' }))).toMatchObject({ status: 403, body: { extra_data: { reason: 'auth_required' } } });
    expect(await json(s.request('GET', path, { token: s.tokens.disabled }))).toMatchObject({ status: 403, body: { extra_data: { reason: 'user_not_registered' } } });
    expect(await json(s.request('GET', path, { token: s.tokens.otherApp }))).toMatchObject({ status: 403, body: { extra_data: { reason: 'user_not_registered' } } });
    expect((await json(s.request('GET', `/api/apps/public/prod/public-settings/by-id/nope`, { token: s.tokens.coach }))).status).toBe(404);
  });

  it('records page views of signed-in users; only admins read them', async () => {
    const res = await s.request('POST', `/api/app-logs/${APP}/log-user-in-app/Cohort%20Detail`, { token: s.tokens.coach });
    expect(res.status).toBe(200);
    expect((await s.request('POST', `/api/app-logs/${APP}/log-user-in-app/Dashboard`)).status).toBe(401);
    const logs = await json(s.request('GET', `/api/app-logs/${APP}`, { token: s.tokens.admin }));
    expect(logs.body[0]).toMatchObject({ page: 'Cohort Detail', user_id: s.users.coach.id, user_email: 'coach@example.org' });
    expect((await s.request('GET', `/api/app-logs/${APP}`, { token: s.tokens.coach })).status).toBe(403);
  });
});
