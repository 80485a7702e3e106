/**
 * Seeded random bad input against in-memory PGlite: ≥ 500 requests, every answer a 4xx
 * {message, code}, the data exactly as before (see bad-requests.ts for what is sent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBadRequests } from './bad-requests';
import { APP, startTestServer, type TestServer } from './harness';

// FUZZ_SEED=<n> replays another sequence (the failing request is printed with its index).
const SEED = Number(process.env.FUZZ_SEED) || 20261122;
const COUNT = 600;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ withPasswords: true, store: 'pglite' });
  const meta = { by: 'admin@example.org', byId: s.users.admin.id };
  await s.store.createMany(APP, 'Participant', [{ first_name: 'Ana', last_name: 'Diaz' }, { first_name: 'Bo', last_name: 'Lee' }], meta);
  await s.store.create(APP, 'Cohort', { program_id: 'p', site_id: 's', cohort_code: 'A-B-2026Q1', capacity: 10 }, meta);
  await s.store.create(APP, 'Enrollment', { participant_id: 'p', cohort_id: 'c', enrollment_status: 'active' }, meta);
  await s.store.create(APP, 'Site', { site_name: 'Camp', site_type: 'fire_camp' }, meta);
});
afterAll(() => s.close());

describe('bad input', () => {
  it(`answers ${COUNT} seeded bad requests with 4xx {message, code} and changes nothing`, async () => {
    const statuses = await runBadRequests(s, COUNT, SEED);
    // The mix really exercised many kinds of refusal.
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([400, 401, 403, 404, 413, 422]));
  });
});
