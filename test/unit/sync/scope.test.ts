import { describe, expect, it } from 'vitest';
import { chunkIds, choiceFor, deriveScope, flatKeys, keyFilters, scopeKeys, splitKeys, type ScopeFacts } from '../../../src/data/sync/scope';

const coach = { email: 'coach@example.org', everySite: false };
const admin = { email: 'admin@example.org', everySite: true };
const known = ['s1', 's2', 's3', 's4'];

describe('S15, issue #22: deriveScope (which sites a tablet holds)', () => {
  const cases: Array<[string, Parameters<typeof deriveScope>[0], { all: boolean; siteIds: string[]; defaultSiteIds: string[] }]> = [
    ['a coach: the sites of their cohorts', { owner: coach, ownCohortSites: ['s2', 's1', 's2'], knownSites: known, choice: null, userId: 'u', now: 1 }, { all: false, siteIds: ['s1', 's2'], defaultSiteIds: ['s1', 's2'] }],
    ['a coach with no cohort: no site', { owner: coach, ownCohortSites: [], knownSites: known, choice: null, userId: 'u', now: 1 }, { all: false, siteIds: [], defaultSiteIds: [] }],
    ['a coach who added one and removed one', { owner: coach, ownCohortSites: ['s1', 's2'], knownSites: known, choice: { userId: 'u', added: ['s4'], removed: ['s1'] }, userId: 'u', now: 1 }, { all: false, siteIds: ['s2', 's4'], defaultSiteIds: ['s1', 's2'] }],
    ["another user's choice is ignored", { owner: coach, ownCohortSites: ['s1'], knownSites: known, choice: { userId: 'v', added: ['s4'], removed: [] }, userId: 'u', now: 1 }, { all: false, siteIds: ['s1'], defaultSiteIds: ['s1'] }],
    ['a site the server deleted is left out', { owner: coach, ownCohortSites: ['s1', 'gone'], knownSites: known, choice: { userId: 'u', added: ['gone2'], removed: [] }, userId: 'u', now: 1 }, { all: false, siteIds: ['s1'], defaultSiteIds: ['s1'] }],
    ['an administrator: every site, unfiltered', { owner: admin, ownCohortSites: [], knownSites: known, choice: null, userId: 'u', now: 1 }, { all: true, siteIds: known, defaultSiteIds: known }],
    ['an administrator who left one off', { owner: admin, ownCohortSites: [], knownSites: known, choice: { userId: 'u', added: [], removed: ['s3'] }, userId: 'u', now: 1 }, { all: false, siteIds: ['s1', 's2', 's4'], defaultSiteIds: known }],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(deriveScope(input)).toMatchObject(expected);
  });

  it('choiceFor records what differs from the default', () => {
    expect(choiceFor('u', ['s1', 's2'], ['s2', 's3'])).toEqual({ userId: 'u', added: ['s3'], removed: ['s1'] });
    expect(choiceFor('u', ['s1'], ['s1'])).toEqual({ userId: 'u', added: [], removed: [] });
  });
});

describe('S15, issue #22: scopeKeys (which rows of each entity)', () => {
  const facts: ScopeFacts = {
    siteIds: ['s1'],
    cohorts: [{ id: 'c1', site_id: 's1' }, { id: 'c2', site_id: 's2' }, { id: 'local-c3', site_id: 's1' }],
    enrollments: [{ id: 'e1', participant_id: 'p1', cohort_id: 'c1' }, { id: 'e2', participant_id: 'local-p2', cohort_id: 'c1' }],
    participantIds: ['p1', 'p9'],
    pins: [{ entity: 'Participant', id: 'p7', reason: 'opened' }, { entity: 'Cohort', id: 'c2', reason: 'opened' }],
  };
  it.each([
    ['Cohort', [{ field: 'site_id', ids: ['s1'] }, { field: 'id', ids: ['c2'] }]],
    // A pinned cohort (c2) names an opened participant's enrollment: it brings no sessions or enrollments.
    ['Session', [{ field: 'cohort_id', ids: ['c1'] }]],
    ['Enrollment', [{ field: 'cohort_id', ids: ['c1'] }, { field: 'participant_id', ids: ['p7'] }]],
    // Temporary ids are not asked for: the server cannot have them.
    ['Participant', [{ field: 'id', ids: ['p1', 'p7'] }]],
    ['Outcome', [{ field: 'participant_id', ids: ['p1', 'p9'] }]],
    ['Program', []],
  ] as const)('%s', (entity, expected) => {
    expect(scopeKeys(entity, facts)).toEqual(expected);
  });

  it('splits keys into those the cursor covers and new ones', () => {
    const keys = [{ field: 'site_id', ids: ['s1', 's2'] }];
    expect(splitKeys(keys, flatKeys([{ field: 'site_id', ids: ['s1', 's9'] }]))).toEqual({ known: [{ field: 'site_id', ids: ['s1'] }], added: [{ field: 'site_id', ids: ['s2'] }] });
    expect(splitKeys(keys, [])).toEqual({ known: [], added: keys });
    // A cursor of the whole entity (before scopes) covers every key.
    expect(splitKeys(keys, null)).toEqual({ known: keys, added: [] });
  });
});

describe('issue #22.5: $in filters are chunked under the URL limit', () => {
  it('no chunk encodes to more than the limit, and no id is lost or repeated', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `6a1f${String(i).padStart(20, '0')}`);
    const chunks = chunkIds(ids);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.flat()).toEqual(ids);
    for (const f of keyFilters([{ field: 'participant_id', ids }], { updated_date: { $gte: '2026-01-01T00:00:00.000Z' } })) {
      expect(`q=${encodeURIComponent(JSON.stringify(f))}`.length).toBeLessThan(16 * 1024 - 200);
    }
  });
});
