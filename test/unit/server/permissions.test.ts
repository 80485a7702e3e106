import { describe, expect, it } from 'vitest';
import { APP_ENTITIES, decide, type Principal } from '../../../server/auth/permissions';

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
