import { describe, expect, it } from 'vitest';
import {
  accessBadge,
  approvalActions,
  accessWasRefused,
  awaitsApproval,
  inApprovalList,
  mustCompleteProfile,
  profileSetupSendsHome,
} from '../../../src/domain/access';

const noProfile = { role: 'user', approved: null, requested_access_date: null };
const pending = { role: 'user', approved: false, requested_access_date: '2026-11-01' };
const approved = { role: 'user', approved: true, requested_access_date: '2026-11-01' };
const rejected = { role: 'guest', approved: false, requested_access_date: '2026-11-01' };
const admin = { role: 'admin', approved: null, requested_access_date: null };
const guestNoRequest = { role: 'guest', approved: false, requested_access_date: null };

describe('access state (spec 4)', () => {
  it('the guard sends every non-admin without an approved request to ProfileSetup', () => {
    expect(mustCompleteProfile(noProfile)).toBe(true);
    expect(mustCompleteProfile(pending)).toBe(true);
    expect(mustCompleteProfile(rejected)).toBe(true);
    expect(mustCompleteProfile(approved)).toBe(false);
    expect(mustCompleteProfile(admin)).toBe(false);
    // approved but never requested: the guard still applies (both fields are read)
    expect(mustCompleteProfile({ role: 'user', approved: true, requested_access_date: null })).toBe(true);
    // a guest stays out even when marked approved (the server refuses them: test/unit/shared)
    expect(mustCompleteProfile({ role: 'guest', approved: true, requested_access_date: '2026-11-01' })).toBe(true);
  });

  it('ProfileSetup sends home only users the guard lets through (no redirect loop)', () => {
    expect(profileSetupSendsHome(approved)).toBe(true);
    expect(profileSetupSendsHome(pending)).toBe(false);
    expect(profileSetupSendsHome({ role: 'user', approved: true, requested_access_date: null })).toBe(false);
    expect(profileSetupSendsHome({ role: 'guest', approved: true, requested_access_date: '2026-01-01' })).toBe(false);
  });

  it('pending approval is shown for a requested, unapproved user who was not rejected (issue #12.5)', () => {
    expect(awaitsApproval(pending)).toBe(true);
    expect(awaitsApproval(rejected)).toBe(false);
    expect(accessWasRefused(rejected)).toBe(true);
    expect(accessWasRefused(pending)).toBe(false);
    expect(accessWasRefused(approved)).toBe(false);
    expect(awaitsApproval(noProfile)).toBe(false);
    expect(awaitsApproval(approved)).toBe(false);
  });

  it('a guest marked approved, held at ProfileSetup by the guard, sees that access was not granted (not the form again)', () => {
    const approvedGuest = { role: 'guest' as const, approved: true, requested_access_date: '2026-01-01' };
    expect(mustCompleteProfile(approvedGuest)).toBe(true);
    expect(accessWasRefused(approvedGuest)).toBe(true);
    expect(awaitsApproval(approvedGuest)).toBe(false);
  });
});

describe('approvals', () => {
  it('badge: approved → Approved; rejected (guest) → Rejected (issue #12.5); request date → Pending; else Rejected', () => {
    expect(accessBadge(approved)).toBe('Approved');
    expect(accessBadge(pending)).toBe('Pending');
    expect(accessBadge(rejected)).toBe('Rejected');
    expect(accessBadge(guestNoRequest)).toBe('Rejected');
    expect(accessBadge(noProfile)).toBe('Rejected');
  });

  it('lists: rejected users appear under Rejected only (issue #12.5)', () => {
    const all = { noProfile, pending, approved, rejected, admin, guestNoRequest };
    const names = (f: 'pending' | 'approved' | 'rejected') =>
      Object.entries(all)
        .filter(([, u]) => inApprovalList(u, f))
        .map(([n]) => n);
    expect(names('pending')).toEqual(['pending']);
    expect(names('approved')).toEqual(['approved']);
    expect(names('rejected')).toEqual(['rejected', 'guestNoRequest']);
  });

  it('actions follow the user state', () => {
    expect(approvalActions(pending)).toBe('decide');
    expect(approvalActions(rejected)).toBe('reconsider');
    expect(approvalActions(approved)).toBe('revoke');
    expect(approvalActions(guestNoRequest)).toBe('none');
  });
});
