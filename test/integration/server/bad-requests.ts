/**
 * Seeded bad requests for the fuzz suites: each one is wrong in some way (malformed JSON, wrong
 * types, unknown operators, injection attempts in q/sort/fields, odd ids, unknown entities, huge
 * bodies, forged cursors, garbage to the auth API, wrong app). `runBadRequests` sends them and
 * checks every answer is a 4xx {message, code} and that the data is unchanged.
 */
import { expect } from 'vitest';
import { createRng, type Rng } from '../../../server/demo/random';
import type { TestServer } from './harness';

export const ENTITIES = ['Participant', 'Cohort', 'Enrollment', 'Session', 'Outcome', 'Program', 'Site', 'User'];

export interface Bad {
  method: string;
  path: string;
  raw?: string;
  who: 'admin' | 'coach' | 'anonymous';
}

const junk = (rng: Rng, n: number) => Array.from({ length: n }, () => String.fromCharCode(rng.int(1, 0x2fff))).join('');
const enc = encodeURIComponent;

const INJECTIONS = [
  "name'; DROP TABLE records; --",
  'a") OR 1=1 --',
  "data->>'x'",
  '$where',
  '__proto__.polluted',
  'id; SELECT pg_sleep(5)',
  '(select 1)',
  '*',
  'a b',
  '../../etc/passwd',
  'x\u0000y',
  'ü-field',
  '-',
  '',
];
const BAD_QUERIES = [
  '{',
  '[]',
  '"text"',
  '42',
  'null',
  '{"a":{"$where":"sleep(1)"}}',
  '{"a":{"$function":{}}}',
  '{"$expr":{"$gt":["$a",1]}}',
  '{"$or":"x"}',
  '{"$and":[]}',
  '{"$or":[1,2]}',
  '{"a":{"$in":"notalist"}}',
  '{"a":{"$exists":"yes"}}',
  '{"a":{"$size":-1}}',
  '{"a":{"$regex":5}}',
  '{"a":{"$not":"x"}}',
  '{"a\'; drop table records;--":1}',
  '{"a":{"$gt":1,"$bogus":2}}',
];
const ODD_IDS = ['x'.repeat(5000), '%2e%2e%2fetc', '..%2F..%2Fpasswd', '%00', 'ü🙂日本', "1' OR '1'='1", '%20', 'id%0Anewline'];

export function generateBadRequest(rng: Rng, existing: Record<string, string>, app: string): Bad {
  const E = (entity: string, rest = '') => `/api/apps/${app}/entities/${entity}${rest}`;
  const entity = rng.pick(ENTITIES);
  const who = rng.pick(['admin', 'admin', 'coach', 'anonymous'] as const);
  const id = existing[entity] ?? 'missing';
  switch (rng.int(0, 16)) {
    case 0: // malformed JSON
      return { method: rng.pick(['POST', 'PUT']), path: rng.chance(0.5) ? E(entity) : E(entity, `/${id}`), raw: rng.pick(['{', '{"a":', '[1,', "{'a':1}", 'undefined', '{"a":1}}', junk(rng, 20)]), who };
    case 1: {
      // wrong types for known fields, each on the entity that has that field
      const [target, body] = rng.pick([
        ['Participant', { age: 'old' }],
        ['Participant', { custody_status: 'free' }],
        ['Participant', { consent_signed: 'yes' }],
        ['Participant', { date_of_birth: '31/12/1990' }],
        ['Participant', { first_name: null }],
        ['Participant', { projected_release_date: '2026-13-01' }],
        ['Cohort', { capacity: 2.5 }],
        ['Cohort', { support_coach_emails: 'a@b.org' }],
        ['Enrollment', { enrollment_status: 'done' }],
        ['Site', { site_type: 'castle' }],
        ['Site', { active: 1 }],
      ] as const);
      return { method: 'PUT', path: E(target, `/${existing[target]}`), raw: JSON.stringify(body), who };
    }
    case 2: // unknown operators and malformed filters
      return { method: 'GET', path: `${E(entity, rng.pick(['', '/count', '/v2/list']))}?q=${enc(rng.pick(BAD_QUERIES))}`, who };
    case 3: // injections in sort
      return { method: 'GET', path: `${E(entity)}?sort=${enc(rng.pick(INJECTIONS.filter((x) => x !== '')) + (rng.chance(0.3) ? junk(rng, 3) : ''))}`, who };
    case 4: // injections in fields
      return { method: 'GET', path: `${E(entity, rng.pick(['', '/v2/list']))}?fields=id,${enc(rng.pick(INJECTIONS.filter((x) => !['', '-'].includes(x))))}`, who };
    case 5: // limit / skip that are not whole numbers
      return { method: 'GET', path: `${E(entity)}?${rng.pick(['limit', 'skip'])}=${enc(rng.pick(['-1', 'abc', '1e3', '1.5', '0x10', '99999999999999999']))}`, who };
    case 6: // odd ids
      return { method: rng.pick(['GET', 'DELETE', 'PUT']), path: E(entity, `/${rng.pick(ODD_IDS)}`), raw: JSON.stringify({ note: 'x' }), who };
    case 7: // unknown entities
      return { method: rng.pick(['GET', 'POST']), path: E(rng.pick(['Inmate', '__proto__', 'constructor', 'records', 'user', 'PARTICIPANT', junk(rng, 5).replace(/[/?#%]/g, 'x')].map(enc)), ''), raw: '{}', who };
    case 8: // bodies over 1 MB
      return { method: 'POST', path: E(entity), raw: JSON.stringify({ first_name: 'x', blob: 'z'.repeat(1024 * 1024 + rng.int(1, 5000)) }), who };
    case 9: // forged cursors
      return {
        method: 'GET',
        path: `${E(entity, '/v2/list')}?cursor=${enc(rng.pick(['abc', '!!!', Buffer.from('{"v":1,"offset":-1}').toString('base64url'), Buffer.from('{"v":2,"offset":0}').toString('base64url'), Buffer.from(`{"v":1,"offset":0,"sort":"${INJECTIONS[0]}"}`).toString('base64url')]))}`,
        who,
      };
    case 10: // non-object bodies, and objects PostgreSQL or JSON.stringify cannot take
      return {
        method: 'POST',
        path: E(entity),
        raw: rng.pick([
          '[1,2]',
          '"text"',
          '17',
          'null',
          'true',
          '{"first_name":"a\\u0000b","last_name":"x"}',
          '{"first_name":"\\ud800","last_name":"x"}',
          `{"first_name":"a","last_name":"b","x":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        ]),
        who,
      };
    case 11: // bad bulk bodies
      return {
        method: rng.pick(['POST', 'PUT']),
        path: E(entity, '/bulk'),
        raw: rng.pick(['{"a":1}', '"x"', JSON.stringify(Array.from({ length: 501 }, () => ({ id })))]),
        who,
      };
    case 12: // garbage to the auth API
      return {
        method: 'POST',
        path: `/api/apps/${app}/auth/${rng.pick(['login', 'register', 'verify-otp', 'reset-password'])}`,
        raw: rng.pick(['{"email":5}', '{"email":"nobody","password":"x"}', '[]', '{"email":"a@b.org","password":{"$gt":""}}', '{"reset_token":"a.b","new_password":"longenough"}', '{"email":"x@y.org","otp_code":{"$ne":1}}']),
        who: 'anonymous',
      };
    case 14: {
      // field names that are Object.prototype members, on the entity API and User/me (issue #10.5),
      // next to a known field of the wrong type so the request must be refused
      const [target, wrong] = rng.pick([
        ['User', { years_experience: 'many' }],
        ['Participant', { age: 'old' }],
        ['Cohort', { capacity: 'x' }],
        ['Site', { active: 1 }],
      ] as const);
      const proto = rng.pick(['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf', 'propertyIsEnumerable']);
      return {
        method: target === 'User' ? 'PUT' : rng.pick(['POST', 'PUT']),
        path: target === 'User' ? E('User', '/me') : E(target, rng.chance(0.5) ? `/${existing[target]}` : ''),
        raw: JSON.stringify({ [proto]: rng.pick(['x', 1, {}, null]), ...wrong }),
        who,
      };
    }
    case 15: // e-mails with NUL and other control characters on every sign-in endpoint (issue #10.5)
      return {
        method: 'POST',
        path: `/api/apps/${app}/auth/${rng.pick(['login', 'register', 'verify-otp', 'resend-otp', 'reset-password-request', 'reset-password'])}`,
        raw: JSON.stringify({
          email: `coach${rng.pick(['\u0000', '\u0001', '\u001f', '\u007f'])}@example.org`,
          password: 'long-enough-pass',
          otp_code: '123456',
          reset_token: `${Buffer.from('coach\u0000@example.org').toString('base64url')}.x`,
          new_password: 'long-enough-pass',
        }),
        who: 'anonymous',
      };
    case 16: // hostile $regex patterns on list, count and v2/list (issue #10.1)
      return {
        method: 'GET',
        path: `${E(entity, rng.pick(['', '/count', '/v2/list']))}?q=${enc(JSON.stringify({ [rng.pick(['site_name', 'first_name', 'email'])]: { $regex: rng.pick(['(a{1,255}){1,255}', '(a+)+$', '(x*)*y', '((ab)*c)*', 'a{1,5000}', '(.)\\1', '(?:[a-z]+ ?)*$', 'z'.repeat(300)]) } }))}`,
        who: rng.pick(['admin', 'coach'] as const),
      };
    default: // wrong app or unknown API paths
      return { method: rng.pick(['GET', 'POST', 'PATCH']), path: rng.pick([`/api/apps/other-app/entities/${entity}`, `/api/apps/${app}/entities/${entity}/update-many`, '/api/unknown', `/api/apps/${app}/nothing`]), raw: '{}', who };
  }
}


async function snapshot(s: TestServer): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const entity of ENTITIES) out[entity] = await s.store.list(s.appId, entity, { sort: 'id', limit: 5000 });
  for (const who of ['admin', 'coach'] as const) out[`auth:${who}`] = await s.store.getAuth(s.appId, `${who}@example.org`);
  return JSON.stringify(out);
}

/** Sends `count` bad requests from `seed`; returns how often each status came back. */
export async function runBadRequests(s: TestServer, count: number, seed: number): Promise<Map<number, number>> {
  const existing: Record<string, string> = {};
  for (const entity of ENTITIES) existing[entity] = (await s.store.list(s.appId, entity, { limit: 1 }))[0]?.id ?? 'none';
  const before = await snapshot(s);
  const rng = createRng(seed);
  const statuses = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const bad = generateBadRequest(rng, existing, s.appId);
    const token = bad.who === 'anonymous' ? undefined : s.tokens[bad.who];
    const raw = bad.method === 'GET' ? undefined : bad.raw;
    const res = await s.request(bad.method, bad.path, { token, raw });
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const label = `#${i} ${bad.method} ${bad.path.slice(0, 120)} as ${bad.who} → ${res.status} ${text.slice(0, 200)}`;
    expect(res.status >= 400 && res.status < 500, label).toBe(true);
    const body = JSON.parse(text);
    expect(typeof body.message === 'string' && typeof body.code === 'string', label).toBe(true);
  }
  expect(await snapshot(s)).toBe(before);
  expect(s.logs.filter((l) => l.startsWith('Internal error'))).toEqual([]);
  return statuses;
}
