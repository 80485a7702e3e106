import { describe, expect, it } from 'vitest';
import type { Participant } from '../../../shared/entities';
import {
  compareByEnrollmentDateDesc,
  filterParticipants,
  indexParticipants,
  participantCountLabel,
} from '../../../src/domain/participant-search';

const p = (id: string, first: string, last: string, extra: Partial<Participant> = {}): Participant => ({
  id,
  first_name: first,
  last_name: last,
  ...extra,
});

const people = [
  p('1', 'Maria', 'Lopez', { email: 'maria.l@example.org', program_status: 'active' }),
  p('2', 'James', 'Carter', { email: 'jc@mail.test', program_status: 'completed' }),
  p('3', 'Ana', 'Marianov', { program_status: 'on_hold' }),
  p('4', 'Dee', 'Walker', { email: null, program_status: 'withdrawn' }),
];
const ids = (list: Participant[]) => list.map((x) => x.id);

describe('participant search (spec 2.5)', () => {
  const index = indexParticipants(people);

  it('matches first name, last name and email case-insensitively', () => {
    expect(ids(filterParticipants(index, 'MARIA', 'all'))).toEqual(['1', '3']);
    expect(ids(filterParticipants(index, 'carter', 'all'))).toEqual(['2']);
    expect(ids(filterParticipants(index, 'MAIL.TEST', 'all'))).toEqual(['2']);
  });

  it('matches the full name across first and last name', () => {
    expect(ids(filterParticipants(index, 'james car', 'all'))).toEqual(['2']);
  });

  it('does not match across the end of the name and the start of the email', () => {
    // "Lopez" + "maria.l@…" must not make "lopezmaria" a hit.
    expect(ids(filterParticipants(index, 'lopezmaria', 'all'))).toEqual([]);
    expect(ids(filterParticipants(index, 'lopez maria', 'all'))).toEqual([]);
  });

  it('ignores surrounding spaces and returns everything for an empty query', () => {
    expect(ids(filterParticipants(index, '  walker ', 'all'))).toEqual(['4']);
    expect(ids(filterParticipants(index, '', 'all'))).toEqual(['1', '2', '3', '4']);
  });

  it('filters by program_status, combined with the query', () => {
    expect(ids(filterParticipants(index, '', 'on_hold'))).toEqual(['3']);
    expect(ids(filterParticipants(index, 'maria', 'active'))).toEqual(['1']);
    expect(ids(filterParticipants(index, 'maria', 'withdrawn'))).toEqual([]);
  });

  it('says "1 participant" and "N participants"', () => {
    expect(participantCountLabel(0)).toBe('0 participants');
    expect(participantCountLabel(1)).toBe('1 participant');
    expect(participantCountLabel(10000)).toBe('10000 participants');
  });

  it('sorts by enrollment_date newest first, undated last, ties by created_date', () => {
    const list = [
      p('a', 'A', 'A', { enrollment_date: '2024-01-01' }),
      p('b', 'B', 'B'),
      p('c', 'C', 'C', { enrollment_date: '2025-03-01', created_date: '2025-03-01T08:00:00Z' }),
      p('d', 'D', 'D', { enrollment_date: '2025-03-01', created_date: '2025-03-01T09:00:00Z' }),
    ];
    expect(ids([...list].sort(compareByEnrollmentDateDesc))).toEqual(['d', 'c', 'a', 'b']);
  });

  it('filters 10,000 participants within one frame (16 ms)', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      p(String(i), `First${i}`, `Last${i}`, { email: `person${i}@example.org`, program_status: i % 4 ? 'active' : 'completed' }),
    );
    const big = indexParticipants(many);
    filterParticipants(big, 'warm', 'all'); // let the JIT compile the loop first
    const runs = 20;
    const t0 = performance.now();
    let hits = 0;
    for (let i = 0; i < runs; i++) hits = filterParticipants(big, `last${i}9`, 'active').length;
    const perKeystroke = (performance.now() - t0) / runs;
    expect(hits).toBeGreaterThan(0);
    expect(perKeystroke).toBeLessThan(16);
  });
});
