import { describe, expect, it } from 'vitest';
import {
  duplicateCandidates,
  editDistance,
  findDuplicates,
  indexForDuplicates,
  soundex,
  type DuplicateCandidate,
  type DuplicateDraft,
} from '../../../src/domain/duplicate-candidates';
import { cdcrKey } from '../../../shared/participant-keys';

const DOB = '1990-04-12';

/** Issue #23.7's rules, one row each: the draft typed, the participant held, whether it matches and why. */
const RULES: Array<[title: string, draft: DuplicateDraft, held: Omit<DuplicateCandidate, 'id'>, reason: string | null]> = [
  ['same CDCR number, different names', { first_name: 'A', last_name: 'B', cdcr_number: 'AB1234' }, { first_name: 'Zed', last_name: 'Young', cdcr_number: 'AB1234' }, 'Same CDCR number'],
  ['CDCR number: case, spaces and dashes do not count', { first_name: 'A', last_name: 'B', cdcr_number: ' ab-12 34 ' }, { first_name: 'C', last_name: 'D', cdcr_number: 'AB1234' }, 'Same CDCR number'],
  ['CDCR number: another number', { first_name: 'A', last_name: 'B', cdcr_number: 'AB1235' }, { first_name: 'A', last_name: 'B', cdcr_number: 'AB1234' }, null],
  ['CDCR number: only dashes is no number', { first_name: 'A', last_name: 'B', cdcr_number: '--' }, { first_name: 'C', last_name: 'D', cdcr_number: ' - ' }, null],
  ['same DOB, same name', { first_name: 'John', last_name: 'Smith', date_of_birth: DOB }, { first_name: 'John', last_name: 'Smith', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB, spelled differently (Soundex)', { first_name: 'Jon', last_name: 'Smith', date_of_birth: DOB }, { first_name: 'John', last_name: 'Smyth', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB, accents and case', { first_name: 'MARIA', last_name: 'garcia', date_of_birth: DOB }, { first_name: 'María', last_name: 'García', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB, first and last swapped', { first_name: 'Garcia', last_name: 'Maria', date_of_birth: DOB }, { first_name: 'Maria', last_name: 'Garcia', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB, one part of a hyphenated name', { first_name: 'Ana', last_name: 'Lopez', date_of_birth: DOB }, { first_name: 'Ana', last_name: 'López-Ruiz', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB, a name run together', { first_name: 'Luis', last_name: 'Delacruz', date_of_birth: DOB }, { first_name: 'Luis', last_name: 'De la Cruz', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB, two letters swapped (one edit)', { first_name: 'Deshawn', last_name: 'Wlliams', date_of_birth: DOB }, { first_name: 'Dashawn', last_name: 'Williams', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB, a middle name typed as first', { first_name: 'Lee', last_name: 'Park', date_of_birth: DOB }, { first_name: 'James', middle_name: 'Lee', last_name: 'Park', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB, an initial', { first_name: 'J', last_name: 'Smith', date_of_birth: DOB }, { first_name: 'John', last_name: 'Smith', date_of_birth: DOB }, 'Same date of birth, similar name'],
  ['same DOB as a date-time', { first_name: 'John', last_name: 'Smith', date_of_birth: DOB }, { first_name: 'John', last_name: 'Smith', date_of_birth: `${DOB}T00:00:00.000Z` }, 'Same date of birth, similar name'],
  ['same DOB, another person', { first_name: 'Maria', last_name: 'Garcia', date_of_birth: DOB }, { first_name: 'Tyrone', last_name: 'Jackson', date_of_birth: DOB }, null],
  ['same DOB, same last name, another first name', { first_name: 'Maria', last_name: 'Garcia', date_of_birth: DOB }, { first_name: 'Beatriz', last_name: 'Garcia', date_of_birth: DOB }, null],
  ['different DOB, same name', { first_name: 'John', last_name: 'Smith', date_of_birth: DOB }, { first_name: 'John', last_name: 'Smith', date_of_birth: '1990-04-13' }, null],
  ['different DOB, same name and same CDCR number', { first_name: 'John', last_name: 'Smith', date_of_birth: DOB, cdcr_number: 'K-5' }, { first_name: 'John', last_name: 'Smith', date_of_birth: '1970-01-01', cdcr_number: 'k5' }, 'Same CDCR number'],
  ['no DOB typed, same name', { first_name: 'John', last_name: 'Smith' }, { first_name: 'John', last_name: 'Smith', date_of_birth: DOB }, null],
  ['same DOB, only a first name typed', { first_name: 'John', last_name: '', date_of_birth: DOB }, { first_name: 'John', last_name: 'Smith', date_of_birth: DOB }, null],
  ['same DOB, nothing but the date held', { first_name: 'John', last_name: 'Smith', date_of_birth: DOB }, { first_name: '', last_name: '', date_of_birth: DOB }, null],
];

describe('duplicate candidates (issue #23.7)', () => {
  it.each(RULES)('%s', (_title, draft, held, reason) => {
    const matches = duplicateCandidates(draft, [{ id: 'p1', ...held }]);
    expect(matches.map((m) => m.reason)).toEqual(reason ? [reason] : []);
  });

  it('lists the same CDCR number first and each person once', () => {
    const rows: DuplicateCandidate[] = [
      { id: 'dob', first_name: 'John', last_name: 'Smith', date_of_birth: DOB },
      { id: 'both', first_name: 'John', last_name: 'Smith', date_of_birth: DOB, cdcr_number: 'X1' },
      { id: 'cdcr', first_name: 'Other', last_name: 'Person', cdcr_number: 'x-1' },
    ];
    const matches = duplicateCandidates({ first_name: 'John', last_name: 'Smith', date_of_birth: DOB, cdcr_number: 'X1' }, rows);
    expect(matches.map((m) => [m.participant.id, m.reason])).toEqual([
      ['both', 'Same CDCR number'],
      ['cdcr', 'Same CDCR number'],
      ['dob', 'Same date of birth, similar name'],
    ]);
  });

  it('keys: Soundex, edit distance and the CDCR key', () => {
    expect([soundex('robert'), soundex('rupert'), soundex('ashcraft'), soundex('tymczak'), soundex('pfister')]).toEqual(['r163', 'r163', 'a261', 't522', 'p236']);
    expect([editDistance('smith', 'smith', 1), editDistance('smith', 'simth', 1), editDistance('smith', 'smyth', 1), editDistance('smith', 'jones', 2)]).toEqual([0, 1, 1, 3]);
    expect([cdcrKey(' ab-12 34 '), cdcrKey('AB1234'), cdcrKey(''), cdcrKey(null), cdcrKey('ß1')]).toEqual(['AB1234', 'AB1234', null, null, '1']);
  });

  it('finds one person among 10,000 through the index (its speed is a bench row)', () => {
    const rows: DuplicateCandidate[] = Array.from({ length: 10_000 }, (_, i) => ({
      id: `p${i}`,
      first_name: `First${i}`,
      last_name: `Last${i}`,
      date_of_birth: `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
      cdcr_number: `K${i}`,
    }));
    const index = indexForDuplicates(rows);
    expect(findDuplicates(index, { first_name: 'X', last_name: 'Y', cdcr_number: 'k-4242' }).map((m) => m.participant.id)).toEqual(['p4242']);
    expect(findDuplicates(index, { first_name: 'First7', last_name: 'Last7', date_of_birth: rows[7].date_of_birth }).map((m) => m.participant.id)).toContain('p7');
  });
});
