import type { User } from '../../shared/entities';

/**
 * A user's access, derived from fields (spec.md 4). Pure: the shell's guard, ProfileSetup and
 * AdminApprovals all read it from here, so the three screens can never disagree.
 */
export type AccessState = 'admin' | 'no-profile' | 'pending' | 'approved' | 'rejected';

type AccessFields = Pick<User, 'role' | 'approved' | 'requested_access_date'>;

export function accessStateOf(user: AccessFields): AccessState {
  if (user.role === 'admin') return 'admin';
  if (user.approved === true) return 'approved';
  if (!user.requested_access_date) return 'no-profile';
  return user.role === 'guest' ? 'rejected' : 'pending';
}

/**
 * The layout guard (spec 2.3): a non-admin with no requested_access_date, or with one but not
 * approved, is sent to ProfileSetup from every other page. Note an approved user who never filled
 * in the profile is still sent there (the rule reads both fields).
 */
export function mustCompleteProfile(user: AccessFields): boolean {
  return user.role !== 'admin' && (!user.requested_access_date || user.approved !== true);
}

/**
 * ProfileSetup sends an approved, non-guest user to the Dashboard (spec 2.14) — but only when the
 * guard would let them stay there, or the two rules would bounce the user between pages forever.
 */
export function profileSetupSendsHome(user: AccessFields): boolean {
  return user.approved === true && user.role !== 'guest' && !mustCompleteProfile(user);
}

/** ProfileSetup shows 'Access Pending Approval' instead of the form. */
export function awaitsApproval(user: AccessFields): boolean {
  return !!user.requested_access_date && user.approved !== true;
}

export type AccessBadge = 'Approved' | 'Pending' | 'Rejected';

/**
 * The approvals card badge (spec 4): approved → Approved; otherwise a request date → Pending;
 * otherwise Rejected. So a rejected user who had requested access shows 'Pending'.
 */
export function accessBadge(user: AccessFields): AccessBadge {
  if (user.approved === true) return 'Approved';
  return user.requested_access_date ? 'Pending' : 'Rejected';
}

export type ApprovalFilter = 'pending' | 'approved' | 'rejected';

/**
 * Which approvals list a user appears in. Pending: requested and not approved (rejected users
 * too, spec 4). Approved: approved. Rejected: role guest and not approved (rejected or revoked).
 */
export function inApprovalList(user: AccessFields, filter: ApprovalFilter): boolean {
  switch (filter) {
    case 'pending':
      return !!user.requested_access_date && user.approved !== true;
    case 'approved':
      return user.approved === true;
    case 'rejected':
      return user.role === 'guest' && user.approved !== true;
    default: {
      const never: never = filter;
      throw new Error(`Unknown approval filter ${String(never)}`);
    }
  }
}

/** The actions a card offers: by the user's own state, not by the list it is shown in. */
export function approvalActions(user: AccessFields): 'decide' | 'revoke' | 'none' {
  if (user.approved === true) return 'revoke';
  return user.requested_access_date ? 'decide' : 'none';
}
