/**
 * The HTTP side over a real PostgreSQL server (the same Store implementation as PGlite): sign-in,
 * CRUD, bulk, cursor pages, coach projection and a fuzz run. A fresh app id per run keeps it apart
 * from other suites sharing TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { runBadRequests } from './bad-requests';
import { PASSWORD, startTestServer, type TestServer } from './harness';

let s: TestServer;
let release = () => {};
const appId = `http-${Date.now().toString(36)}`;

describe.skipIf(!postgresInstalled)(`on PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    const pg = await acquirePostgres();
    release = pg.release;
    s = await startTestServer({ databaseUrl: pg.url, appId, withPasswords: true });
  });
  afterAll(async () => {
    await s?.close();
    release();
  });

  const E = (entity: string, rest = '') => `/api/apps/${appId}/entities/${entity}${rest}`;
  const json = async (res: Promise<Response>) => {
    const r = await res;
    return { status: r.status, body: (await r.json()) as any };
  };

  it('signs in and runs the entity API', async () => {
    const login = await json(s.request('POST', `/api/apps/${appId}/auth/login`, { body: { email: 'coach@example.org', password: PASSWORD } }));
    expect(login.status).toBe(200);
    const t = login.body.access_token;
    const made = await json(s.request('POST', E('Participant', '/bulk'), { token: t, body: Array.from({ length: 7 }, (_, i) => ({ first_name: `P${i}`, last_name: 'Q' })) }));
    expect(made.body).toHaveLength(7);
    const upd = await json(s.request('PUT', E('Participant', `/${made.body[0].id}`), { token: t, body: { custody_status: 'released' } }));
    expect(upd.body).toMatchObject({ first_name: 'P0', custody_status: 'released' });
    const filtered = await json(s.request('GET', `${E('Participant')}?q=${encodeURIComponent('{"custody_status":"released"}')}`, { token: t }));
    expect(filtered.body.map((p: any) => p.first_name)).toEqual(['P0']);
    const names: string[] = [];
    let cursor = '';
    do {
      const page = await json(s.request('GET', `${E('Participant', '/v2/list')}?limit=3&sort=first_name${cursor ? `&cursor=${cursor}` : ''}`, { token: t }));
      names.push(...page.body.items.map((p: any) => p.first_name));
      cursor = page.body.next_cursor ?? '';
    } while (cursor);
    expect(names).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
    const users = await json(s.request('GET', E('User'), { token: t }));
    expect(Object.keys(users.body[0]).sort()).toEqual(['email', 'full_name', 'id']);
    expect((await json(s.request('DELETE', E('Participant', `/${made.body[1].id}`), { token: t }))).status).toBe(403);
    expect((await json(s.request('DELETE', E('Participant', `/${made.body[1].id}`), { token: s.tokens.admin }))).body).toEqual({ success: true });
  });

  it('answers 300 seeded bad requests with 4xx and changes nothing', async () => {
    const statuses = await runBadRequests(s, 300, 4242);
    expect(statuses.size).toBeGreaterThan(3);
  });
});
