import { describe, expect, it } from 'vitest';
import { buildSearchIndex, ENROL_SEARCH_LIMIT, participantName, searchParticipants } from '../../../src/domain/enrol-search';
import type { Participant } from '../../../shared/entities';

const people: Participant[] = [
  { id: 'p1', first_name: 'Maria', last_name: 'Lopez', academy_uid: 'RA-0001' },
  { id: 'p2', first_name: 'James', last_name: 'Mariano', academy_uid: 'RA-0002' },
  { id: 'p3', first_name: 'Ann', last_name: 'Smith', academy_uid: null },
  { id: 'p4', first_name: 'Luis', last_name: 'Ortega', academy_uid: 'ZX-77' },
];
const index = buildSearchIndex(people);
const none = new Set<string>();
const ids = (q: string, excluded = none) => searchParticipants(index, q, excluded).matches.map((p) => p.id);

describe('searchParticipants', () => {
  it('matches first and last names case-insensitively', () => {
    expect(ids('MARI')).toEqual(['p1', 'p2']);
    expect(ids('smith')).toEqual(['p3']);
  });

  it('matches the UID', () => {
    expect(ids('zx-7')).toEqual(['p4']);
    expect(ids('ra-000')).toEqual(['p1', 'p2']);
  });

  it('matches a full name typed with a space', () => {
    expect(ids('ann smi')).toEqual(['p3']);
  });

  it('does not match across two fields', () => {
    expect(ids('lopezra')).toEqual([]);
  });

  it('shows nothing until text is typed', () => {
    expect(ids('')).toEqual([]);
    expect(ids('   ')).toEqual([]);
  });

  it('excludes participants with an active enrollment in the cohort', () => {
    expect(ids('mari', new Set(['p1']))).toEqual(['p2']);
  });

  it('caps the shown results and reports the total', () => {
    const many: Participant[] = Array.from({ length: 10_000 }, (_, i) => ({
      id: `id${i}`,
      first_name: `First${i}`,
      last_name: i % 2 ? 'Odd' : 'Even',
      academy_uid: `U${i}`,
    }));
    const big = buildSearchIndex(many);
    const started = performance.now();
    const result = searchParticipants(big, 'even', none);
    const elapsed = performance.now() - started;
    expect(result.total).toBe(5_000);
    expect(result.matches).toHaveLength(ENROL_SEARCH_LIMIT);
    expect(result.matches[0].id).toBe('id0');
    // One pass over 10,000 entries; generous bound so a busy CI machine does not flake.
    expect(elapsed).toBeLessThan(100);
  });
});

describe('participantName', () => {
  it('joins first and last name', () => {
    expect(participantName({ first_name: 'Ann', last_name: 'Smith' })).toBe('Ann Smith');
  });
});
