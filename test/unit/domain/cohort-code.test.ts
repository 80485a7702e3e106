import { describe, expect, it } from 'vitest';
import { codeKey, generateCohortCode, initials, nextFreeCohortCode, quarterOf } from '../../../src/domain/cohort-code';

describe('generateCohortCode', () => {
  it('joins program initials, site initials, year and quarter (ABC-DEF-2025Q1)', () => {
    expect(generateCohortCode('Financial Literacy Basics', 'San Quentin Prison', '2025-02-10')).toBe('FLB-SQP-2025Q1');
  });

  it('keeps at most 3 initials per name', () => {
    expect(generateCohortCode('Money Skills For Life Now', 'California Institution For Men', '2024-07-01')).toBe('MSF-CIF-2024Q3');
  });

  it('upper-cases lower-case words and ignores extra spaces', () => {
    expect(generateCohortCode('  credit   repair ', 'fire camp', '2026-12-31')).toBe('CR-FC-2026Q4');
  });

  it('takes the first letter or digit of a word, not punctuation', () => {
    expect(initials('(Pilot) 2nd Chance')).toBe('P2C');
  });

  it.each([
    ['2025-01-01', 'Q1'],
    ['2025-03-31', 'Q1'],
    ['2025-04-01', 'Q2'],
    ['2025-06-15', 'Q2'],
    ['2025-07-01', 'Q3'],
    ['2025-09-30', 'Q3'],
    ['2025-10-01', 'Q4'],
    ['2025-12-01', 'Q4'],
  ])('puts %s in %s (month / 3 rounded up, read without time zones)', (date, q) => {
    expect(generateCohortCode('A', 'B', date)).toBe(`A-B-2025${q}`);
  });

  it('returns null for a missing or malformed start date', () => {
    expect(generateCohortCode('A', 'B', '')).toBeNull();
    expect(generateCohortCode('A', 'B', '01/02/2025')).toBeNull();
    expect(generateCohortCode('A', 'B', '2025-13-01')).toBeNull();
  });

  it('quarterOf covers every month', () => {
    expect(Array.from({ length: 12 }, (_, i) => quarterOf(i + 1))).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
  });
});

describe('nextFreeCohortCode (issue #12.3)', () => {
  it('keeps a free code, else takes the next free suffix, comparing trimmed and case-blind', () => {
    const taken = (...codes: string[]) => new Set(codes.map(codeKey));
    expect(nextFreeCohortCode('FLB-SQP-2025Q1', taken())).toBe('FLB-SQP-2025Q1');
    expect(nextFreeCohortCode('FLB-SQP-2025Q1', taken(' flb-sqp-2025q1 '))).toBe('FLB-SQP-2025Q1-2');
    expect(nextFreeCohortCode('FLB-SQP-2025Q1', taken('FLB-SQP-2025Q1', 'FLB-SQP-2025Q1-2', 'FLB-SQP-2025Q1-4'))).toBe('FLB-SQP-2025Q1-3');
  });
});
