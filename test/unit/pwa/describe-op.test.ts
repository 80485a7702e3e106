import { describe, expect, it } from 'vitest';
import { describeOp, showValue } from '../../../src/screens/sync/describe-op';
import { titleOfRow } from '../../../src/domain/record-title';

describe('describeOp (Sync page: what changed)', () => {
  it('words creates, deletes, unenrolments and field updates', () => {
    expect(describeOp({ entity: 'Participant', kind: 'create', data: { first_name: 'Ana' } })).toBe('Added participant');
    expect(describeOp({ entity: 'Enrollment', kind: 'create', data: { participant_id: 'p', cohort_id: 'c' } })).toBe('Enrolled in a cohort');
    expect(describeOp({ entity: 'Enrollment', kind: 'update', data: { enrollment_status: 'withdrawn' } })).toBe('Unenrolled from a cohort');
    expect(describeOp({ entity: 'Site', kind: 'delete', data: {} })).toBe('Deleted site');
    expect(describeOp({ entity: 'Participant', kind: 'update', data: { phone: '1', projected_release_date: '2027-01-01' } })).toBe(
      'Changed phone, projected release date',
    );
  });

  it('names at most three fields, then counts the rest', () => {
    const data = { a_b: 1, c: 2, d: 3, e: 4, f: 5 };
    expect(describeOp({ entity: 'Participant', kind: 'update', data })).toBe('Changed a b, c, d +2 more');
  });

  it('names a record the way a coach recognises it (the one title function, domain/record-title)', () => {
    expect(titleOfRow('Participant', { first_name: 'Ana', last_name: 'Ruiz' })).toBe('Ana Ruiz');
    expect(titleOfRow('Cohort', { cohort_code: 'FIN-SQ-2026-01' })).toBe('FIN-SQ-2026-01');
    expect(titleOfRow('Participant', { phone: '1' })).toBeNull();
    expect(titleOfRow('Enrollment', {}, { participant: { first_name: 'Ana', last_name: 'Ruiz' }, cohort: { cohort_code: 'C-1' } })).toBe('Ana Ruiz in C-1');
  });
});

describe('showValue', () => {
  it('shows empty values and booleans in words', () => {
    expect(showValue(null)).toBe('(empty)');
    expect(showValue('')).toBe('(empty)');
    expect(showValue(true)).toBe('yes');
    expect(showValue(['a@x.org', 'b@x.org'])).toBe('a@x.org, b@x.org');
    expect(showValue(12)).toBe('12');
  });
});
