import { describe, expect, it } from 'vitest';
import { APP_ENTITIES, ATTENDANCE_COACH_FIELDS, decide, type CohortRole, type Principal } from '../../../server/auth/permissions';

const user = (fields: Record<string, unknown>): Principal => ({ kind: 'user', user: { id: 'u1', ...fields } });
const admin = user({ role: 'admin' });
const coach = user({ role: 'user', approved: true, requested_access_date: '2026-01-02' });
const noProfile = user({ role: 'user' });
const pending = user({ role: 'user', requested_access_date: '2026-01-02', approved: false });
const rejected = user({ role: 'guest', requested_access_date: '2026-01-02', approved: false });

// The access states themselves: test/unit/shared/access-state.test.ts (one function, both sides).

describe('decide', () => {
  it('sends anonymous callers to sign in and refuses unregistered ones', () => {
    expect(decide({ kind: 'anonymous' }, 'read', 'Participant')).toMatchObject({ allow: false, status: 401, reason: 'auth_required' });
    expect(decide({ kind: 'anonymous' }, 'read_me', 'User')).toMatchObject({ allow: false, status: 401 });
    expect(decide({ kind: 'unregistered' }, 'read_me', 'User')).toMatchObject({ allow: false, status: 403, reason: 'user_not_registered' });
    expect(decide({ kind: 'anonymous' }, 'device_key', null)).toMatchObject({ allow: false, status: 401, code: 'AUTH_REQUIRED' });
    expect(decide({ kind: 'unregistered' }, 'device_key', null)).toMatchObject({ allow: false, status: 403, code: 'USER_NOT_REGISTERED' });
  });

  it('lets every signed-in user read and update their own profile, ask their devices\' status and log page views', () => {
    for (const p of [admin, coach, noProfile, pending, rejected]) {
      expect(decide(p, 'device_status', null).allow).toBe(true);
      expect(decide(p, 'read_me', 'User').allow).toBe(true);
      expect(decide(p, 'update_me', 'User').allow).toBe(true);
      expect(decide(p, 'write_log', null).allow).toBe(true);
    }
  });

  it('releases a device key only to an approved, active account (issue #21)', () => {
    for (const p of [admin, coach]) expect(decide(p, 'device_key', null).allow).toBe(true);
    const approvedGuest = user({ role: 'guest', requested_access_date: '2026-01-02', approved: true });
    const approvedNoProfile = user({ role: 'user', approved: true });
    for (const p of [noProfile, pending, rejected, approvedGuest, approvedNoProfile]) {
      expect(decide(p, 'device_key', null)).toMatchObject({ allow: false, status: 403, code: 'DEVICE_KEY_FORBIDDEN' });
    }
  });

  it('lets only administrators list and revoke devices', () => {
    expect(decide(admin, 'manage_devices', null).allow).toBe(true);
    expect(decide(coach, 'manage_devices', null)).toMatchObject({ allow: false, status: 403, code: 'FORBIDDEN' });
    for (const p of [noProfile, pending, rejected]) expect(decide(p, 'manage_devices', null)).toMatchObject({ allow: false, status: 403 });
    expect(decide({ kind: 'anonymous' }, 'manage_devices', null)).toMatchObject({ allow: false, status: 401 });
  });

  it('keeps not-approved users away from every app entity', () => {
    for (const p of [noProfile, pending, rejected]) {
      for (const entity of [...APP_ENTITIES, 'User']) {
        for (const action of ['read', 'create', 'update', 'delete'] as const) {
          const code = entity === 'User' && action === 'create' ? 'FORBIDDEN' : 'NOT_APPROVED';
          expect(decide(p, action, entity)).toMatchObject({ allow: false, status: 403, code });
        }
      }
    }
  });

  it('gives coaches exactly their row of the table', () => {
    for (const entity of APP_ENTITIES) expect(decide(coach, 'read', entity)).toEqual({ allow: true });
    expect(decide(coach, 'read', 'User')).toEqual({
      allow: true,
      visibleFields: ['id', 'email', 'full_name'],
      queryFields: ['id', 'email', 'full_name', 'created_date', 'updated_date'],
    });
    const creatable = ['Participant', 'Cohort', 'Enrollment'];
    for (const entity of [...APP_ENTITIES, 'User']) {
      expect(decide(coach, 'create', entity).allow).toBe(creatable.includes(entity));
      expect(decide(coach, 'delete', entity).allow).toBe(false);
    }
    expect(decide(coach, 'update', 'Participant', { fields: ['first_name', 'custody_status'] }).allow).toBe(true);
    expect(decide(coach, 'update', 'Enrollment', { fields: ['enrollment_status'] }).allow).toBe(true);
    expect(decide(coach, 'update', 'Enrollment', { fields: ['enrollment_status', 'cohort_id'] })).toMatchObject({ allow: false, status: 403 });
    for (const entity of ['Cohort', 'Program', 'Site', 'Session', 'Outcome', 'User']) {
      expect(decide(coach, 'update', entity, { fields: ['x'] }).allow).toBe(false);
    }
    expect(decide(coach, 'read_logs', null).allow).toBe(false);
    expect(decide(coach, 'invite', null).allow).toBe(false);
  });

  it('lets admins do everything except the self-protections and creating users through entities', () => {
    for (const entity of APP_ENTITIES) {
      for (const action of ['read', 'create', 'update', 'delete'] as const) expect(decide(admin, action, entity).allow).toBe(true);
    }
    expect(decide(admin, 'update', 'User', { fields: ['approved', 'approval_date', 'approved_by', 'role'] }).allow).toBe(true);
    expect(decide(admin, 'delete', 'User').allow).toBe(true);
    expect(decide(admin, 'read_logs', null).allow).toBe(true);
    expect(decide(admin, 'invite', null).allow).toBe(true);
    expect(decide(admin, 'create', 'User')).toMatchObject({ allow: false, status: 403 });
    for (const field of ['role', 'approved', 'approval_date', 'approved_by', 'email', 'id']) {
      expect(decide(admin, 'update', 'User', { fields: [field], self: true })).toMatchObject({ allow: false, status: 403 });
    }
    expect(decide(admin, 'update', 'User', { fields: ['phone'], self: true }).allow).toBe(true);
    expect(decide(admin, 'delete', 'User', { self: true }).allow).toBe(false);
  });
});

describe('decide: Sessions and Attendance by the coach\'s place in the cohort (issue #23)', () => {
  const ROLES: Array<CohortRole | undefined> = ['lead', 'support', 'none', undefined];
  const ACTIONS = ['create', 'update', 'delete'] as const;
  /** What a coach may do, by place; everything else is a 403. */
  const MAY: Record<string, Record<CohortRole, readonly string[]>> = {
    Session: { lead: ['create', 'update', 'delete'], support: [], none: [] },
    Attendance: { lead: ['create', 'update'], support: ['create', 'update'], none: [] },
  };

  it.each(
    (['Session', 'Attendance'] as const).flatMap((entity) =>
      ROLES.flatMap((role) => ACTIONS.map((action) => [entity, action, role ?? 'unset', MAY[entity][role ?? 'none'].includes(action)] as const)),
    ),
  )('coach: %s %s as %s → allowed %s', (entity, action, role, allowed) => {
    const cohortRole = role === 'unset' ? undefined : role;
    const fields = entity === 'Attendance' && action === 'update' ? ['status'] : undefined;
    const got = decide(coach, action, entity, { cohortRole, fields });
    if (allowed) expect(got).toEqual({ allow: true });
    else expect(got).toMatchObject({ allow: false, status: 403, code: 'FORBIDDEN' });
  });

  it('lets admins write both whatever their place in the cohort', () => {
    for (const entity of ['Session', 'Attendance']) {
      for (const cohortRole of ROLES) {
        for (const action of ACTIONS) {
          expect(decide(admin, action, entity, { cohortRole, fields: ['participant_id', 'session_id'] }).allow).toBe(true);
        }
      }
    }
  });

  it('keeps reads open to approved users and closed to the rest, whatever the place', () => {
    for (const cohortRole of ROLES) {
      for (const entity of ['Session', 'Attendance']) {
        expect(decide(coach, 'read', entity, { cohortRole })).toEqual({ allow: true });
        for (const p of [noProfile, pending, rejected]) {
          expect(decide(p, 'read', entity, { cohortRole })).toMatchObject({ allow: false, status: 403, code: 'NOT_APPROVED' });
          expect(decide(p, 'create', entity, { cohortRole: 'lead' })).toMatchObject({ allow: false, status: 403, code: 'NOT_APPROVED' });
        }
      }
    }
  });

  it('lets the cohort\'s coaches change only status, note, recorded_by and recorded_at of an attendance', () => {
    expect(ATTENDANCE_COACH_FIELDS).toEqual(['status', 'note', 'recorded_by', 'recorded_at']);
    for (const cohortRole of ['lead', 'support'] as const) {
      expect(decide(coach, 'update', 'Attendance', { cohortRole, fields: [...ATTENDANCE_COACH_FIELDS] }).allow).toBe(true);
      expect(decide(coach, 'update', 'Attendance', { cohortRole, fields: [] }).allow).toBe(true);
      for (const field of ['participant_id', 'session_id', 'cohort_id', 'client_ref', 'other']) {
        const got = decide(coach, 'update', 'Attendance', { cohortRole, fields: ['status', field] });
        expect(got).toMatchObject({ allow: false, status: 403, code: 'FORBIDDEN' });
        expect(got.allow === false && got.message).toContain(`not ${field}`);
      }
    }
    // The restriction is the update's: a create names every field of the record.
    const all = ['session_id', 'cohort_id', 'participant_id', ...ATTENDANCE_COACH_FIELDS];
    expect(decide(coach, 'create', 'Attendance', { cohortRole: 'support', fields: all }).allow).toBe(true);
    // A lead coach's session is not restricted by field.
    expect(decide(coach, 'update', 'Session', { cohortRole: 'lead', fields: ['cohort_id', 'topic', 'scheduled_at'] }).allow).toBe(true);
  });
});
