import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, E, startTestServer, type TestServer } from './harness';

/**
 * Issue #23.7: a participant create repeating a CDCR number is a 409 the tablet can review (never a
 * silent second record), and `participantDuplicates` finds possible duplicates across the academy.
 */
let s: TestServer;
const meta = { by: 'admin@example.org', byId: 'admin' };
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const json = async (res: Response | Promise<Response>) => {
  const r = await res;
  return { status: r.status, body: (await r.json()) as any };
};
const count = async () => (await json(s.request('GET', E('Participant'), { token: s.tokens.admin }))).body.length as number;

describe('a create repeating a CDCR number', () => {
  it('is refused with 409 POSSIBLE_DUPLICATE naming the UID and the ids, however the number is typed; single and bulk', async () => {
    const [held] = await s.store.createMany(APP, 'Participant', [{ first_name: 'Ana', last_name: 'Ruiz', cdcr_number: 'AB-1234', academy_uid: 'U-77' }], meta);
    const before = await count();
    for (const cdcr of ['AB-1234', 'ab1234', ' ab 12-34 ']) {
      const res = await json(s.request('POST', E('Participant'), { token: s.tokens.coach, body: { first_name: 'Ann', last_name: 'Ruis', cdcr_number: cdcr } }));
      expect(res).toMatchObject({ status: 409, body: { code: 'POSSIBLE_DUPLICATE', field: 'cdcr_number', extra_data: { duplicate_ids: [held.id] } } });
      expect(res.body.message).toBe('A participant with this CDCR number already exists (UID U-77). Open it to check, or mark this one as a different person.');
      // Nothing personal beyond the UID.
      expect(res.body.message).not.toMatch(/Ana|Ruiz/);
    }
    const bulk = await json(
      s.request('POST', E('Participant', '/bulk'), { token: s.tokens.coach, body: [{ first_name: 'X', last_name: 'Y', cdcr_number: 'Z9' }, { first_name: 'B', last_name: 'C', cdcr_number: 'ab1234' }] }),
    );
    expect(bulk).toMatchObject({ status: 409, body: { code: 'POSSIBLE_DUPLICATE', extra_data: { duplicate_ids: [held.id] } } });
    // Two of one request with one new number: the second is refused, nothing is written.
    const twice = await json(
      s.request('POST', E('Participant', '/bulk'), { token: s.tokens.coach, body: [{ first_name: 'X', last_name: 'Y', cdcr_number: 'Q1' }, { first_name: 'B', last_name: 'C', cdcr_number: 'q-1' }] }),
    );
    expect(twice).toMatchObject({ status: 409, body: { code: 'POSSIBLE_DUPLICATE', extra_data: { duplicate_ids: [] } } });
    expect(await count()).toBe(before);
  });

  it('is saved when the coach marked that record a different person, and a re-sent create (its client_ref) is its own answer', async () => {
    const [held] = await s.store.createMany(APP, 'Participant', [{ first_name: 'Lee', last_name: 'Park', cdcr_number: 'K-500' }], meta);
    const body = { first_name: 'Lee', last_name: 'Parks', cdcr_number: 'k500', different_person_from: [held.id], client_ref: 'ref-k500' };
    const saved = await json(s.request('POST', E('Participant'), { token: s.tokens.coach, body }));
    expect(saved.status).toBe(200);
    expect(saved.body.different_person_from).toEqual([held.id]);
    // S3: the same create again (its answer was lost) returns the stored record, not a 409 against itself.
    const again = await json(s.request('POST', E('Participant'), { token: s.tokens.coach, body }));
    expect(again).toMatchObject({ status: 200, body: { id: saved.body.id } });
    // A third person with that number is refused against both.
    const third = await json(s.request('POST', E('Participant'), { token: s.tokens.coach, body: { first_name: 'Z', last_name: 'Z', cdcr_number: 'K500', different_person_from: [held.id] } }));
    expect(third).toMatchObject({ status: 409, body: { extra_data: { duplicate_ids: [saved.body.id] } } });
    // Without a CDCR number, or with an unused one, nothing is checked.
    expect((await s.request('POST', E('Participant'), { token: s.tokens.coach, body: { first_name: 'Lee', last_name: 'Park' } })).status).toBe(200);
    expect((await s.request('POST', E('Participant'), { token: s.tokens.coach, body: { first_name: 'Lee', last_name: 'Park', cdcr_number: 'K501' } })).status).toBe(200);
  });
});

describe('participantDuplicates', () => {
  const PATH = `/api/apps/${APP}/functions/participantDuplicates`;
  it('answers the same CDCR number or date of birth across the academy, with where they are enrolled', async () => {
    const [site] = await s.store.createMany(APP, 'Site', [{ site_name: 'Folsom' }], meta);
    const [cohort] = await s.store.createMany(APP, 'Cohort', [{ site_id: site.id, cohort_code: 'FOL-1' }], meta);
    const [a, b] = await s.store.createMany(
      APP,
      'Participant',
      [
        { first_name: 'Jon', last_name: 'Smyth', date_of_birth: '1988-02-03', cdcr_number: 'T-1', phone: '555', academy_uid: 'U-1' },
        { first_name: 'Other', last_name: 'Person', date_of_birth: '1988-02-04', cdcr_number: 'T-2' },
      ],
      meta,
    );
    await s.store.createMany(APP, 'Enrollment', [{ participant_id: a.id, cohort_id: cohort.id, enrollment_status: 'active' }], meta);

    const res = await s.request('POST', PATH, { token: s.tokens.coach, body: { date_of_birth: '1988-02-03', cdcr_number: 't2' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { matches } = (await res.json()) as { matches: Array<{ participant: Record<string, unknown>; places: unknown[] }> };
    expect(matches.map((m) => m.participant.id).sort()).toEqual([a.id, b.id].sort());
    const first = matches.find((m) => m.participant.id === a.id)!;
    expect(first.participant).toEqual({ id: a.id, academy_uid: 'U-1', first_name: 'Jon', last_name: 'Smyth', date_of_birth: '1988-02-03', cdcr_number: 'T-1' });
    expect(first.places).toEqual([{ cohort_code: 'FOL-1', site_name: 'Folsom' }]);

    expect((await json(s.request('POST', PATH, { token: s.tokens.coach, body: {} }))).body).toEqual({ matches: [] });
    expect((await s.request('POST', PATH, { token: s.tokens.coach, body: { date_of_birth: 'yesterday' } })).status).toBe(400);
    expect((await s.request('POST', PATH, { token: s.tokens.pending, body: { cdcr_number: 'T-1' } })).status).toBe(403);
  });
});
