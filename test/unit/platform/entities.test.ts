import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../../src/platform';
import { fakeFetch } from './fake-fetch';

function client(replies: Parameters<typeof fakeFetch>[0] = []) {
  const f = fakeFetch(replies);
  const c = createPlatformClient({ serverUrl: 'http://srv', appId: 'passage', getToken: () => 'TOK', fetch: f.fetch, originUrl: 'http://app/page' });
  return { c, calls: f.calls };
}

describe('entities: paths and query strings as the SDK writes them', () => {
  it('list drops falsy params and comma-joins fields', async () => {
    const { c, calls } = client([{ body: [{ id: 'a' }] }, { body: [] }]);
    expect(await c.entities('Participant').list('-created_date', 0, 0, ['id', 'first_name'])).toEqual([{ id: 'a' }]);
    await c.entities('Participant').list();
    expect(calls[0].url).toBe('http://srv/api/apps/passage/entities/Participant?sort=-created_date&fields=id,first_name');
    expect(calls[0].method).toBe('GET');
    expect(calls[1].url).toBe('http://srv/api/apps/passage/entities/Participant');
  });

  it('filter sends q as JSON with $ and : left literal, + encoded and space as +', async () => {
    const { c, calls } = client([{ body: [] }, { body: [] }]);
    await c.entities('Enrollment').filter({ n: { $gte: 5 } }, '+name', 10, 20);
    expect(calls[0].url).toBe(
      'http://srv/api/apps/passage/entities/Enrollment?q=%7B%22n%22:%7B%22$gte%22:5%7D%7D&sort=%2Bname&limit=10&skip=20',
    );
    await c.entities('Participant').filter({ first_name: 'Ana Maria' }, undefined, undefined, undefined, []);
    expect(calls[1].url).toBe('http://srv/api/apps/passage/entities/Participant?q=%7B%22first_name%22:%22Ana+Maria%22%7D&fields=');
  });

  it('get, create, update, delete, bulk calls use the contract methods and bodies', async () => {
    const { c, calls } = client([{ body: { id: 'p1' } }, { body: { id: 'p2' } }, { body: { id: 'p1' } }, { body: { success: true } }, { body: [] }, { body: [] }]);
    const e = c.entities('Participant');
    await e.get('p1');
    await e.create({ first_name: 'A', last_name: 'B' });
    await e.update('p1', { phone: '1' });
    expect(await e.delete('p1')).toEqual({ success: true });
    await e.bulkCreate([{ first_name: 'C', last_name: 'D' }]);
    await e.bulkUpdate([{ id: 'p1', phone: '2' }]);
    expect(calls.map((x) => `${x.method} ${x.url.replace('http://srv/api/apps/passage/entities', '')}`)).toEqual([
      'GET /Participant/p1',
      'POST /Participant',
      'PUT /Participant/p1',
      'DELETE /Participant/p1',
      'POST /Participant/bulk',
      'PUT /Participant/bulk',
    ]);
    expect(calls[1].body).toEqual({ first_name: 'A', last_name: 'B' });
    expect(calls[2].body).toEqual({ phone: '1' });
    expect(calls[5].body).toEqual([{ id: 'p1', phone: '2' }]);
  });

  it('count returns the number and sends q only when given', async () => {
    const { c, calls } = client([{ body: { count: 7 } }, { body: { count: 2 } }]);
    expect(await c.entities('Cohort').count()).toBe(7);
    expect(await c.entities('Cohort').count({ status: 'active' })).toBe(2);
    expect(calls[0].url).toBe('http://srv/api/apps/passage/entities/Cohort/count');
    expect(calls[1].url).toBe('http://srv/api/apps/passage/entities/Cohort/count?q=%7B%22status%22:%22active%22%7D');
  });

  it('listV2 always sends limit (default 100) and passes the cursor', async () => {
    const page = { items: [{ id: 'x' }], next_cursor: 'c2', has_more: true };
    const { c, calls } = client([{ body: page }, { body: page }]);
    expect(await c.entities('Site').listV2()).toEqual(page);
    await c.entities('Site').listV2({ q: { active: true }, sort: 'updated_date', limit: 500, cursor: 'c1', fields: ['id'] });
    expect(calls[0].url).toBe('http://srv/api/apps/passage/entities/Site/v2/list?limit=100');
    expect(calls[1].url).toBe(
      'http://srv/api/apps/passage/entities/Site/v2/list?q=%7B%22active%22:true%7D&limit=500&cursor=c1&sort=updated_date&fields=id',
    );
  });
});

describe('headers', () => {
  it('carries app id, origin, bearer token, json types and the functions version', async () => {
    const f = fakeFetch([{ body: [] }]);
    const c = createPlatformClient({
      serverUrl: '',
      appId: 'passage',
      getToken: () => 'JWT',
      fetch: f.fetch,
      originUrl: () => 'http://app/participants',
      functionsVersion: 'v7',
    });
    await c.entities('Program').list();
    const h = f.calls[0].headers;
    expect(f.calls[0].url).toBe('/api/apps/passage/entities/Program');
    expect(h.get('X-App-Id')).toBe('passage');
    expect(h.get('X-Origin-URL')).toBe('http://app/participants');
    expect(h.get('Authorization')).toBe('Bearer JWT');
    expect(h.get('Content-Type')).toBe('application/json');
    expect(h.get('Accept')).toBe('application/json');
    expect(h.get('Base44-Functions-Version')).toBe('v7');
  });

  it('sends no Authorization or version header when there is none, and reads the token per call', async () => {
    let token: string | null = null;
    const f = fakeFetch([{ body: [] }, { body: [] }]);
    const c = createPlatformClient({ serverUrl: '', appId: 'passage', getToken: () => token, fetch: f.fetch, originUrl: 'x' });
    await c.entities('Program').list();
    token = 'NEW';
    await c.entities('Program').list();
    expect(f.calls[0].headers.has('Authorization')).toBe(false);
    expect(f.calls[0].headers.has('Base44-Functions-Version')).toBe(false);
    expect(f.calls[1].headers.get('Authorization')).toBe('Bearer NEW');
  });
});
