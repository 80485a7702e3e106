import { describe, expect, it } from 'vitest';
import type { Participant } from '../../../shared/entities';
import {
  emptyParticipantForm,
  formFromParticipant,
  parseAge,
  toCreateInput,
  toPatch,
  validateParticipantForm,
} from '../../../src/domain/participant-form';

describe('participant form → record', () => {
  it('starts with gender male and custody in-custody (spec 9 defaults)', () => {
    const f = emptyParticipantForm();
    expect(f.gender).toBe('male');
    expect(f.custody_status).toBe('in-custody');
    expect(f.consent_signed).toBe(false);
    expect(f.first_name).toBe('');
  });

  it('requires first and last name', () => {
    const errors = validateParticipantForm({ ...emptyParticipantForm(), first_name: '  ' });
    expect(errors.first_name).toBe('First name is required');
    expect(errors.last_name).toBe('Last name is required');
    expect(validateParticipantForm({ ...emptyParticipantForm(), first_name: 'Ana', last_name: 'Ruiz' })).toEqual({});
  });

  it('rejects an age that is not a whole number and a malformed email', () => {
    const base = { ...emptyParticipantForm(), first_name: 'Ana', last_name: 'Ruiz' };
    expect(validateParticipantForm({ ...base, age: '12.5' }).age).toMatch(/whole number/);
    expect(validateParticipantForm({ ...base, age: '-3' }).age).toMatch(/whole number/);
    expect(validateParticipantForm({ ...base, email: 'ana@' }).email).toMatch(/valid email/);
    expect(validateParticipantForm({ ...base, age: '41', email: 'ana@example.org' })).toEqual({});
  });

  it('parses the age as an integer', () => {
    expect(parseAge(' 34 ')).toBe(34);
    expect(parseAge('')).toBeNull();
    expect(parseAge('121')).toBeNull();
  });

  it('leaves empty fields out of a new record, trims text, sends age as an integer', () => {
    const input = toCreateInput(
      { ...emptyParticipantForm(), first_name: ' Ana ', last_name: 'Ruiz', age: '34', email: 'ana@example.org', consent_signed: true },
      '2025-05-02',
    );
    expect(input).toEqual({
      first_name: 'Ana',
      last_name: 'Ruiz',
      age: 34,
      email: 'ana@example.org',
      gender: 'male',
      custody_status: 'in-custody',
      consent_signed: true,
      program_status: 'active',
      enrollment_date: '2025-05-02',
    });
  });

  it('edits send only the changed fields; a cleared field becomes null', () => {
    const original: Participant = {
      id: 'p1',
      first_name: 'Ana',
      last_name: 'Ruiz',
      phone: '555-0100',
      age: 34,
      custody_status: 'in-custody',
      consent_signed: false,
    };
    const form = formFromParticipant(original);
    expect(toPatch(original, form)).toEqual({});
    expect(toPatch(original, { ...form, phone: '', custody_status: 'released', age: '35' })).toEqual({
      phone: null,
      custody_status: 'released',
      age: 35,
    });
    expect(toPatch(original, { ...form, consent_signed: true, consent_date: '2025-02-01' })).toEqual({
      consent_signed: true,
      consent_date: '2025-02-01',
    });
  });

  it('does not save the select default for a gender that was never recorded', () => {
    const original: Participant = { id: 'p2', first_name: 'Lee', last_name: 'Park' };
    const form = formFromParticipant(original);
    expect(toPatch(original, form)).toEqual({});
    expect(toPatch(original, { ...form, gender: 'female' })).toEqual({ gender: 'female' });
  });
});
