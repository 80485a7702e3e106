import { describe, expect, it } from 'vitest';
import { makeDevice } from '../../support/device';
import { fakeEntityClient } from '../../support/fake-entity-client';
import { OfflineError } from '../../../src/data/errors';
import { OPENED_TTL_MS } from '../../../src/data/sync/scope';
import {
  BEYOND_SCOPE_OFFLINE_MESSAGE,
  escapeRegex,
  keepOnTablet,
  participantSearchFilter,
  searchParticipantsBeyond,
} from '../../../src/data/online/beyond-scope';
import type { Row } from '../../../src/data/platform-like';

const NOW = Date.UTC(2026, 0, 15, 12);

describe('participantSearchFilter (issue #22.2)', () => {
  it('escapes every regex metacharacter, so the text matches literally', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    const escaped = escapeRegex(text);
    expect(escaped).toBe('a\\.b\\*c\\+d\\?e\\^f\\$g\\{h\\}i\\(j\\)k\\|l\\[m\\]n\\\\o');
    expect(new RegExp(escaped).test(`xx${text}yy`)).toBe(true);
    expect(new RegExp(escapeRegex('a.c')).test('abc')).toBe(false);
  });

  it('list: every word must match first name, last name or email (case-insensitive)', () => {
    expect(participantSearchFilter('  Maria   o.b ', 'list')).toEqual({
      $and: [
        { $or: [{ first_name: { $regex: 'maria', $options: 'i' } }, { last_name: { $regex: 'maria', $options: 'i' } }, { email: { $regex: 'maria', $options: 'i' } }] },
        { $or: [{ first_name: { $regex: 'o\\.b', $options: 'i' } }, { last_name: { $regex: 'o\\.b', $options: 'i' } }, { email: { $regex: 'o\\.b', $options: 'i' } }] },
      ],
    });
  });

  it('enrol: first name, last name and UID; the list status filter is added when chosen', () => {
    expect(participantSearchFilter('ra-003', 'enrol')).toEqual({
      $and: [{ $or: [{ first_name: { $regex: 'ra-003', $options: 'i' } }, { last_name: { $regex: 'ra-003', $options: 'i' } }, { academy_uid: { $regex: 'ra-003', $options: 'i' } }] }],
    });
    expect(participantSearchFilter('lee', 'list', 'on_hold')).toMatchObject({ $and: [{ $or: expect.any(Array) }, { program_status: 'on_hold' }] });
  });

  it('no words: no filter; repeated words once; long text bounded', () => {
    expect(participantSearchFilter('   ')).toBeNull();
    expect((participantSearchFilter('ann ANN ann')!.$and as unknown[]).length).toBe(1);
    const many = participantSearchFilter(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' '))!;
    expect((many.$and as unknown[]).length).toBe(8);
    const long = participantSearchFilter('x'.repeat(500))!;
    const pattern = ((long.$and as any[])[0].$or[0].first_name.$regex as string);
    expect(pattern.length).toBeLessThanOrEqual(200);
  });
});

const people: Row[] = [
  { id: 'p1', first_name: 'Maria', last_name: 'Lopez', email: 'maria@example.org', enrollment_date: '2025-01-01' },
  { id: 'p2', first_name: 'Rosa', last_name: 'Lopez', email: 'rosa@example.org', enrollment_date: '2025-03-01', academy_uid: 'RA-9' },
  { id: 'p3', first_name: 'Lee', last_name: 'Park', email: 'lee.lopez@example.org', enrollment_date: '2024-01-01' },
  { id: 'p4', first_name: 'Ann', last_name: 'Smith', enrollment_date: '2025-02-01' },
];

describe('searchParticipantsBeyond', () => {
  it('asks the server with the filter, sorted like the list, limit 20', async () => {
    const { data } = makeDevice();
    const client = fakeEntityClient({ Participant: people });
    data.client = client;
    const found = await searchParticipantsBeyond(data, 'LOPEZ');
    expect(found.map((p) => p.id)).toEqual(['p2', 'p1', 'p3']);
    expect(client.calls).toEqual([{ entity: 'Participant', method: 'filter', args: [participantSearchFilter('LOPEZ'), '-enrollment_date', 20] }]);
    expect((await searchParticipantsBeyond(data, 'rosa lopez')).map((p) => p.id)).toEqual(['p2']);
    expect((await searchParticipantsBeyond(data, 'ra-9', { mode: 'enrol' })).map((p) => p.id)).toEqual(['p2']);
    expect(await searchParticipantsBeyond(data, 'ra-9', { mode: 'list' })).toEqual([]);
  });

  it("sends the typed words in a POST body where the server offers participantSearch, never in a URL; falls back to the filter on a 404", async () => {
    const { data } = makeDevice();
    const invoked: Array<{ name: string; params: Record<string, unknown> }> = [];
    const withFunction = {
      ...fakeEntityClient({ Participant: people }),
      functions: {
        invoke: async (name: string, params: Record<string, unknown>) => {
          invoked.push({ name, params });
          return { data: [people[1]] };
        },
      },
    };
    data.client = withFunction;
    expect((await searchParticipantsBeyond(data, 'rosa')).map((p) => p.id)).toEqual(['p2']);
    expect(invoked).toEqual([{ name: 'participantSearch', params: { q: participantSearchFilter('rosa'), sort: '-enrollment_date', limit: 20 } }]);
    expect(withFunction.calls).toEqual([]);

    const plain = fakeEntityClient({ Participant: people });
    const absent = {
      ...plain,
      functions: {
        invoke: async () => {
          throw Object.assign(new Error('No such function'), { status: 404 });
        },
      },
    };
    data.client = absent;
    expect((await searchParticipantsBeyond(data, 'rosa')).map((p) => p.id)).toEqual(['p2']);
    expect(plain.calls.map((c) => c.method)).toEqual(['filter']);
  });

  it('blank text asks nothing; no answer is OfflineError', async () => {
    const { data } = makeDevice();
    const client = fakeEntityClient({ Participant: people });
    data.client = client;
    expect(await searchParticipantsBeyond(data, '  ')).toEqual([]);
    expect(client.calls).toHaveLength(0);
    client.offline = true;
    await expect(searchParticipantsBeyond(data, 'lopez')).rejects.toBeInstanceOf(OfflineError);
    data.client = null;
    await expect(searchParticipantsBeyond(data, 'lopez')).rejects.toThrow(BEYOND_SCOPE_OFFLINE_MESSAGE);
  });
});

function server() {
  return fakeEntityClient({
    Participant: [{ id: 'px', first_name: 'Rosa', last_name: 'Lopez', email: 'rosa@example.org', updated_date: '2026-01-10T00:00:00.000Z' }],
    Enrollment: [
      { id: 'e1', participant_id: 'px', cohort_id: 'c1', enrollment_status: 'active', updated_date: '2026-01-10T00:00:00.000Z' },
      { id: 'e2', participant_id: 'px', cohort_id: 'c2', enrollment_status: 'withdrawn', updated_date: '2026-01-10T00:00:00.000Z' },
      { id: 'e3', participant_id: 'other', cohort_id: 'c3', enrollment_status: 'active' },
    ],
    Cohort: [
      { id: 'c1', program_id: 'pr', site_id: 's9', cohort_code: 'FAR-1', updated_date: '2026-01-10T00:00:00.000Z' },
      { id: 'c2', program_id: 'pr', site_id: 's8', cohort_code: 'FAR-2', updated_date: '2026-01-10T00:00:00.000Z' },
      { id: 'c3', program_id: 'pr', site_id: 's8', cohort_code: 'FAR-3' },
    ],
    Outcome: [
      { id: 'o1', participant_id: 'px', outcome_type: 'job' },
      { id: 'o2', participant_id: 'other' },
    ],
  });
}

describe('keepOnTablet', () => {
  it('writes the participant, its enrollments, their cohorts and its outcomes, and pins it and the cohorts for a day', async () => {
    const { data, db } = makeDevice({ now: () => NOW });
    data.client = server();
    const kept = await keepOnTablet(data, 'px');
    expect(kept).toMatchObject({ id: 'px', first_name: 'Rosa', email: 'rosa@example.org' });
    expect(await db.participants.get('px')).toMatchObject({ first_name: 'Rosa', last_name: 'Lopez' });
    expect((await db.enrollments.toArray()).map((e) => e.id).sort()).toEqual(['e1', 'e2']);
    expect((await db.cohorts.toArray()).map((c) => c.cohort_code).sort()).toEqual(['FAR-1', 'FAR-2']);
    expect((await db.outcomes.toArray()).map((o) => o.id)).toEqual(['o1']);
    const pins = (await db.pins.toArray()).map((p) => [p.entity, p.id, p.reason, p.until]).sort();
    const until = NOW + OPENED_TTL_MS;
    expect(pins).toEqual([
      ['Cohort', 'c1', 'opened', until],
      ['Cohort', 'c2', 'opened', until],
      ['Participant', 'px', 'opened', until],
    ]);
    // Nothing is queued: these are the server's rows, not changes.
    expect(await db.outbox.count()).toBe(0);
  });

  it('leaves rows with queued changes (and newer copies) as they are', async () => {
    const { data, db } = makeDevice({ now: () => NOW });
    data.client = server();
    await db.participants.put({ id: 'px', first_name: 'Rosie', last_name: 'Lopez', updated_date: '2026-01-01T00:00:00.000Z' });
    await db.enrollments.put({ id: 'e1', participant_id: 'px', cohort_id: 'c1', enrollment_status: 'withdrawn', updated_date: '2026-01-01T00:00:00.000Z' });
    await db.cohorts.put({ id: 'c2', program_id: 'pr', site_id: 's8', cohort_code: 'NEWER', updated_date: '2026-01-12T00:00:00.000Z' });
    const op = { kind: 'update' as const, state: 'pending' as const, attempts: 0, next_attempt_at: 0, user_id: 'user-1', created_at: 1 };
    await db.outbox.bulkAdd([
      { ...op, entity: 'Participant', record_id: 'px', data: { first_name: 'Rosie' } },
      { ...op, entity: 'Enrollment', record_id: 'e1', data: { enrollment_status: 'withdrawn' } },
    ]);
    // An open conflict on a cohort: the tablet's copy stays until a person settles it.
    await db.cohorts.put({ id: 'c1', program_id: 'pr', site_id: 's9', cohort_code: 'MINE', updated_date: '2026-01-01T00:00:00.000Z' });
    await db.conflicts.add({ entity: 'Cohort', record_id: 'c1', field: 'cohort_code', local_value: 'MINE', server_value: 'FAR-1', server_updated_date: null, detected_at: 1, status: 'open', kind: 'field' });
    const kept = await keepOnTablet(data, 'px');
    expect(kept).toMatchObject({ id: 'px', first_name: 'Rosie' });
    expect(await db.participants.get('px')).toMatchObject({ first_name: 'Rosie' });
    expect(await db.enrollments.get('e1')).toMatchObject({ enrollment_status: 'withdrawn' });
    expect(await db.enrollments.get('e2')).toMatchObject({ enrollment_status: 'withdrawn', cohort_id: 'c2' });
    expect(await db.cohorts.get('c2')).toMatchObject({ cohort_code: 'NEWER' });
    expect(await db.cohorts.get('c1')).toMatchObject({ cohort_code: 'MINE' });
    expect(await db.outbox.count()).toBe(2);
    expect(await db.pins.count()).toBe(3);
  });

  it('extends an opened pin, never shortens it, and leaves an own pin of the same record', async () => {
    const { data, db } = makeDevice({ now: () => NOW });
    data.client = server();
    const later = NOW + 2 * OPENED_TTL_MS;
    await db.pins.bulkPut([
      { entity: 'Cohort', id: 'c1', reason: 'opened', until: later },
      { entity: 'Cohort', id: 'c2', reason: 'opened', until: NOW - 1 },
      { entity: 'Participant', id: 'px', reason: 'own', until: null },
    ]);
    await keepOnTablet(data, 'px');
    const pins = (await db.pins.toArray()).map((p) => `${p.entity}:${p.id}:${p.reason}:${p.until}`).sort();
    expect(pins).toEqual([
      `Cohort:c1:opened:${later}`,
      `Cohort:c2:opened:${NOW + OPENED_TTL_MS}`,
      `Participant:px:opened:${NOW + OPENED_TTL_MS}`,
      'Participant:px:own:null',
    ]);
  });

  it('null when the server has no such participant (404), or for a temporary id; nothing written', async () => {
    const { data, db } = makeDevice();
    const client = server();
    data.client = client;
    expect(await keepOnTablet(data, 'nobody')).toBeNull();
    expect(client.calls.map((c) => c.method)).toEqual(['get']);
    expect(await keepOnTablet(data, 'local-123')).toBeNull();
    expect(client.calls).toHaveLength(1);
    expect(await db.pins.count()).toBe(0);
    expect(await db.participants.count()).toBe(0);
  });

  it('throws OfflineError without a connection and writes nothing; other server errors pass on', async () => {
    const { data, db } = makeDevice();
    const client = server();
    data.client = client;
    client.offline = true;
    const err = await keepOnTablet(data, 'px').catch((e) => e);
    expect(err).toBeInstanceOf(OfflineError);
    expect(err.message).toBe(BEYOND_SCOPE_OFFLINE_MESSAGE);
    data.client = null;
    await expect(keepOnTablet(data, 'px')).rejects.toBeInstanceOf(OfflineError);
    const refusing = server();
    refusing.entities = () => ({ get: () => Promise.reject(Object.assign(new Error('Forbidden'), { status: 403 })) }) as any;
    data.client = refusing;
    await expect(keepOnTablet(data, 'px')).rejects.toMatchObject({ status: 403 });
    expect(await db.pins.count()).toBe(0);
    expect(await db.participants.count()).toBe(0);
  });

  it('is one transaction: a failing write leaves nothing behind', async () => {
    const { data, db } = makeDevice({ now: () => NOW });
    data.client = server();
    db.pins.hook('creating', () => {
      throw new Error('disk trouble');
    });
    await expect(keepOnTablet(data, 'px')).rejects.toThrow('disk trouble');
    expect(await db.participants.count()).toBe(0);
    expect(await db.enrollments.count()).toBe(0);
    expect(await db.cohorts.count()).toBe(0);
    expect(await db.outcomes.count()).toBe(0);
  });
});
