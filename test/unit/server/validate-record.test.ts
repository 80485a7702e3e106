import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../server/errors';
import { validateRecord } from '../../../server/http/validate-record';

function problem(entity: string, body: unknown, mode: 'create' | 'update' = 'update') {
  try {
    validateRecord(entity, body, mode);
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, field: err.extra?.field, message: err.message };
    throw err;
  }
  return null;
}

describe('validateRecord', () => {
  it('requires first and last name on a new participant and refuses clearing them', () => {
    expect(problem('Participant', { last_name: 'Diaz' }, 'create')).toMatchObject({ status: 422, field: 'first_name' });
    expect(problem('Participant', { first_name: 'Ana', last_name: '  ' }, 'create')).toMatchObject({ status: 422, field: 'last_name' });
    expect(problem('Participant', { first_name: 'Ana', last_name: 'Diaz' }, 'create')).toBeNull();
    expect(problem('Participant', { first_name: null })).toMatchObject({ status: 422, field: 'first_name' });
    expect(problem('Participant', { phone: '555' })).toBeNull();
  });

  it('checks enums, integers, booleans, dates and lists, naming the field', () => {
    expect(problem('Participant', { custody_status: 'free' })).toMatchObject({ field: 'custody_status' });
    expect(problem('Participant', { gender: 'prefer not to say' })).toBeNull();
    expect(problem('Participant', { age: 30.5 })).toMatchObject({ field: 'age' });
    expect(problem('Participant', { age: '30' })).toMatchObject({ field: 'age' });
    expect(problem('Participant', { consent_signed: 'yes' })).toMatchObject({ field: 'consent_signed' });
    expect(problem('Participant', { date_of_birth: '1990-02-30' })).toMatchObject({ field: 'date_of_birth' });
    expect(problem('Participant', { date_of_birth: '02/03/1990' })).toMatchObject({ field: 'date_of_birth' });
    expect(problem('Participant', { date_of_birth: '1990-02-03' })).toBeNull();
    expect(problem('Participant', { date_of_birth: '1990-02-03T00:00:00.000Z' })).toBeNull();
    expect(problem('Cohort', { support_coach_emails: ['a@x.org', 3] })).toMatchObject({ field: 'support_coach_emails' });
    expect(problem('Cohort', { capacity: null, support_coach_emails: [] })).toBeNull();
    expect(problem('Session', { scheduled_at: '2026-12-01T17:00:00Z' })).toBeNull();
    expect(problem('Session', { scheduled_at: 'tomorrow' })).toMatchObject({ field: 'scheduled_at' });
    expect(problem('Enrollment', { enrollment_status: 'done' })).toMatchObject({ field: 'enrollment_status' });
    expect(problem('User', { linkedin_url: 'javascript:alert(1)' })).toMatchObject({ field: 'linkedin_url' });
    expect(problem('User', { years_experience: 4 })).toBeNull();
  });

  it('keeps unknown fields, drops server-kept ones and refuses odd field names', () => {
    const out = validateRecord('Outcome', { participant_id: 'p', outcome_type: 'job', nested: { a: 1 }, id: 'x', created_date: 'y', updated_date: 'z' }, 'create');
    expect(out).toEqual({ participant_id: 'p', outcome_type: 'job', nested: { a: 1 } });
    expect(validateRecord('User', { is_verified: true, app_id: 'other', phone: '1' }, 'update')).toEqual({ phone: '1' });
    expect(problem('Outcome', { 'a b': 1 })).toMatchObject({ status: 422 });
    expect(problem('Outcome', { "x'); drop table records;--": 1 })).toMatchObject({ status: 422 });
    expect(problem('Outcome', [1, 2])).toMatchObject({ status: 400 });
  });
});

describe('nesting', () => {
  it('refuses values nested deeper than 16 levels', () => {
    const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);
    expect(problem('Outcome', { x: deep(15) })).toBeNull();
    expect(problem('Outcome', { x: JSON.parse('['.repeat(5000) + ']'.repeat(5000)) })).toMatchObject({ status: 422, field: 'x' });
  });
});

describe('reserved names', () => {
  it('refuses __proto__ and friends as field names', () => {
    expect(problem('Outcome', JSON.parse('{"__proto__":{"admin":true}}'))).toMatchObject({ status: 422 });
    expect(problem('Outcome', { constructor: 1 })).toMatchObject({ status: 422 });
  });
});
