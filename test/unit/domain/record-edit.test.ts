/** S18's edit-form rules as plain data (src/domain/record-edit.ts). */
import { describe, expect, it } from 'vitest';
import { changedSince, editedFields, keepTyped, patchOf, sameFieldValue, showFieldValue, takeNewValues, type EditField } from '../../../src/domain/record-edit';

const FIELDS: EditField[] = [
  { key: 'first_name', label: 'First Name' },
  { key: 'phone', label: 'Phone' },
  { key: 'consent_signed', label: 'Consent Signed' },
  { key: 'emails', label: 'Support Coaches' },
];

describe('S18: what changed under an open edit form', () => {
  it('S18: names the fields whose live value is not the start, with the new value as shown', () => {
    const start = { first_name: 'Maria', phone: null, consent_signed: false, emails: ['a@x.org'] };
    const live = { first_name: 'Mariana', phone: '', consent_signed: true, emails: ['a@x.org', 'b@x.org'] };
    expect(changedSince(start, live, FIELDS)).toEqual([
      { key: 'first_name', label: 'First Name', value: 'Mariana' },
      { key: 'consent_signed', label: 'Consent Signed', value: 'Yes' },
      { key: 'emails', label: 'Support Coaches', value: 'a@x.org, b@x.org' },
    ]);
  });

  it('S18: takes the new values of untouched fields only', () => {
    const start = { first_name: 'Maria', phone: '1' };
    const live = { first_name: 'Mariana', phone: '2' };
    expect(takeNewValues(start, live, FIELDS, ['phone'])).toEqual({ first_name: 'Mariana', phone: '1' });
  });

  it('treats null, undefined and an empty string as one empty value', () => {
    expect(sameFieldValue(null, '')).toBe(true);
    expect(sameFieldValue(undefined, null)).toBe(true);
    expect(sameFieldValue(0, null)).toBe(false);
    expect(showFieldValue(null)).toBe('(empty)');
    expect(showFieldValue(12)).toBe('12');
  });

  it('S4: the fields the person edited are those whose stored form value is not the start, and only they are sent', () => {
    const start = { first_name: 'Maria', phone: null, consent_signed: false, emails: ['a@x.org'] };
    const values = { first_name: 'Maria', phone: '', consent_signed: true, emails: ['a@x.org'] };
    const edited = editedFields(start, values, FIELDS);
    expect(edited).toEqual(['consent_signed']);
    expect(patchOf(values, edited)).toEqual({ consent_signed: true });
  });

  it('S18: after taking new values the inputs show them, except the edited fields, which keep what was typed', () => {
    expect(keepTyped({ first_name: 'Mariana', phone: '2' }, { first_name: 'Maria', phone: '9' }, ['phone'])).toEqual({ first_name: 'Mariana', phone: '9' });
  });
});
