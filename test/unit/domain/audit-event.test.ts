import { describe, expect, it } from 'vitest';
import { actionLabel, arrivedLater, auditQuery, changedFields, fieldLabel, setFilters, NO_AUDIT_FILTERS } from '../../../src/domain/audit-event';
import { auditCsv, changesText } from '../../../src/domain/audit-csv';
import { AUDIT_ACTIONS } from '../../../shared/audit';

describe('issue #26: the Audit page’s rules', () => {
  it('builds exact, indexed filters; empty ones are left out', () => {
    expect(auditQuery(NO_AUDIT_FILTERS)).toEqual({});
    expect(auditQuery({ actor: ' cora@example.org ', entity: 'Cohort', record: ' c1 ', action: 'delete' })).toEqual({
      actor_email: 'cora@example.org',
      entity: 'Cohort',
      record_id: 'c1',
      action: 'delete',
    });
    // A failed sign-in keeps the address as typed; accounts keep it in lower case: both asked.
    expect(auditQuery({ actor: 'Cora@Example.org' })).toEqual({ actor_email: { $in: ['cora@example.org', 'Cora@Example.org'] } });
  });

  it('a range of days covers both days whole, in local time; a malformed date is ignored', () => {
    expect(auditQuery({ from: '2026-03-01', to: '2026-03-01' })).toEqual({
      created_date: { $gte: new Date(2026, 2, 1).toISOString(), $lt: new Date(2026, 2, 2).toISOString() },
    });
    expect(auditQuery({ to: '2026-12-31' })).toEqual({ created_date: { $lt: new Date(2027, 0, 1).toISOString() } });
    expect(auditQuery({ from: '03/01/2026' })).toEqual({});
  });

  it('an export notice names only the filters set', () => {
    expect(setFilters({ ...NO_AUDIT_FILTERS, record: 'p1', action: 'update' })).toEqual({ record: 'p1', action: 'update' });
  });

  it('says both times only when the edit arrived a minute or more after it was made', () => {
    expect(arrivedLater({ created_date: '2026-03-10T15:00:00Z', client_time: null })).toBe(false);
    expect(arrivedLater({ created_date: '2026-03-10T15:00:59Z', client_time: '2026-03-10T15:00:00Z' })).toBe(false);
    expect(arrivedLater({ created_date: '2026-03-10T15:01:00Z', client_time: '2026-03-10T15:00:00Z' })).toBe(true);
    // A tablet clock ahead of the server's is not "queued".
    expect(arrivedLater({ created_date: '2026-03-10T15:00:00Z', client_time: '2026-03-10T16:00:00Z' })).toBe(false);
  });

  it('has words for every action the server records', () => {
    for (const action of AUDIT_ACTIONS) expect(actionLabel(action)).not.toBe(action);
    expect(actionLabel('something_new')).toBe('something new');
  });

  it('shows an update’s fields old → new, a create’s or delete’s values without the empty ones', () => {
    expect(changedFields({ phone: { old: '1', new: '2' }, address: { old: null, new: 'A' } })).toEqual([
      { field: 'phone', old: '1', new: '2', kind: 'change' },
      { field: 'address', old: null, new: 'A', kind: 'change' },
    ]);
    expect(changedFields({ first_name: { old: null, new: 'Ana' }, email: { old: null, new: '' } }, 'create')).toEqual([{ field: 'first_name', new: 'Ana', kind: 'value' }]);
    expect(changedFields({ first_name: { old: 'Ana', new: null }, phone: { old: null, new: null } }, 'delete')).toEqual([{ field: 'first_name', new: 'Ana', kind: 'value' }]);
    // An update that fills empty fields is still a change: 'empty → 555-0142'.
    expect(changedFields({ phone: { old: null, new: '555-0142' } }, 'update')).toEqual([{ field: 'phone', old: null, new: '555-0142', kind: 'change' }]);
    // An enrolment: a new enrollment's values, or a status change.
    expect(changedFields({ cohort_id: { old: null, new: 'c1' } }, 'enroll')).toEqual([{ field: 'cohort_id', new: 'c1', kind: 'value' }]);
    expect(changedFields({ enrollment_status: { old: 'active', new: 'withdrawn' } }, 'unenroll')).toEqual([
      { field: 'enrollment_status', old: 'active', new: 'withdrawn', kind: 'change' },
    ]);
    expect(changedFields({ kind: 'audit', row_count: 3 })).toEqual([
      { field: 'kind', new: 'audit', kind: 'value' },
      { field: 'row_count', new: 3, kind: 'value' },
    ]);
    expect(changedFields(null)).toEqual([]);
    expect(fieldLabel('academy_uid')).toBe('Academy UID');
    expect(fieldLabel('cdcr_number')).toBe('CDCR number');
    expect(fieldLabel('custody_status')).toBe('Custody status');
  });

  it('writes the CSV: header, RFC 4180 quoting, formulas neutralised, CRLF', () => {
    const csv = auditCsv([
      {
        created_date: '2026-03-10T15:00:00.000Z',
        client_time: '2026-03-10T09:00:00.000Z',
        seq: 7,
        actor_email: '=cmd@evil',
        actor_id: 'u1',
        device_id: 'd1',
        action: 'update',
        entity: 'Participant',
        record_id: 'p1',
        outcome: 'success',
        reason: null,
        changes: { note: { old: 'a, b', new: 'say "hi"\nthen' } },
        address: '10.0.0.5',
      },
    ]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Arrived (UTC),Edited on tablet (UTC),Seq,Person,Person ID,Device,Action,Entity,Record ID,Outcome,Reason,Changes,Address');
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv).toContain(`2026-03-10T15:00:00.000Z,2026-03-10T09:00:00.000Z,7,'=cmd@evil,u1,d1,Changed,Participant,p1,Success,,"note: a, b → say ""hi""\nthen",10.0.0.5`);
    expect(changesText({ phone: { old: null, new: '2' }, first_name: { old: 'A', new: 'B' } })).toBe('phone: (empty) → 2; first_name: A → B');
  });
});
