import { hasAppAccess } from '../../shared/access-state';
import type { User } from '../../shared/entities';

/**
 * A user's access on the client. The state itself is `accessState` of shared/access-state.ts,
 * the same function the server's permission table uses, so the client lets in exactly the users
 * the server answers. The helpers below are what the shell's guard, ProfileSetup and
 * AdminApprovals read.
 */
export { accessState, type AccessState } from '../../shared/access-state';

type AccessFields = Pick<User, 'role' | 'approved' | 'requested_access_date'>;

/**
 * The layout guard (spec 2.3, 6): everyone but admins and approved coaches is sent to
 * ProfileSetup from every other page — no profile, pending, rejected, and a guest even when
 * marked approved (the server refuses them every read). An approved user who never filled in the
 * profile is still sent there (the rule reads both fields).
 */
export function mustCompleteProfile(user: AccessFields): boolean {
  return !hasAppAccess(user);
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
