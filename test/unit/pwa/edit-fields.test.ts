import { describe, expect, it } from 'vitest';
import { editableFields, parseEdits } from '../../../src/screens/sync/edit-fields';

describe('editing a rejected op (Sync page)', () => {
  const data = { first_name: 'Ana', age: 31, consent_signed: false, phone: null, client_ref: 'u-1', program_id: 'p1', support_coach_emails: ['a@x.org'] };

  it('offers plain fields, not ids, client_ref or lists', () => {
    expect(editableFields(data).map((f) => `${f.name}:${f.kind}:${f.initial}`)).toEqual([
      'first_name:text:Ana',
      'age:number:31',
      'consent_signed:boolean:false',
      'phone:text:',
    ]);
  });

  it('returns only what changed, typed back', () => {
    const fields = editableFields(data);
    expect(parseEdits(fields, { first_name: 'Ana', age: '32', consent_signed: 'true', phone: '555-0100' })).toEqual({
      ok: true,
      data: { age: 32, consent_signed: true, phone: '555-0100' },
    });
    expect(parseEdits(fields, { first_name: '  ' })).toEqual({ ok: true, data: { first_name: null } });
    expect(parseEdits(fields, { age: '' })).toEqual({ ok: true, data: { age: null } });
    expect(parseEdits(fields, {})).toEqual({ ok: true, data: {} });
  });

  it('reports a number that is not one instead of sending it', () => {
    expect(parseEdits(editableFields(data), { age: 'thirty' })).toEqual({ ok: false, field: 'age', message: 'age must be a number' });
  });
});
