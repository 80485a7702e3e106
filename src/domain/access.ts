import { accessState, hasAppAccess } from '../../shared/access-state';
import type { User } from '../../shared/entities';
import { unreachable } from './unreachable';

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

/**
 * ProfileSetup shows 'Access Pending Approval' instead of the form — not to a rejected user
 * (issue #12.5: they see that access was not granted, see `accessWasRefused`).
 */
export function awaitsApproval(user: AccessFields): boolean {
  return accessState(user) === 'pending';
}

/**
 * A user who asked for access and was refused: rejected or revoked (role guest), also a guest
 * marked approved, whom the server refuses every read — the same state the guard holds them in.
 */
export function accessWasRefused(user: AccessFields): boolean {
  return accessState(user) === 'rejected';
}

export type AccessBadge = 'Approved' | 'Pending' | 'Rejected';

/**
 * The approvals card badge. Spec 4 reads: approved → Approved; otherwise a request date → Pending;
 * otherwise Rejected — so a rejected user who had requested access showed 'Pending'. Issue #12.5
 * makes that state honest: a rejected or revoked user (role guest, not approved) is Rejected.
 */
export function accessBadge(user: AccessFields): AccessBadge {
  if (user.approved === true) return 'Approved';
  if (user.role === 'guest') return 'Rejected';
  return user.requested_access_date ? 'Pending' : 'Rejected';
}

export type ApprovalFilter = 'pending' | 'approved' | 'rejected';

/**
 * Which approvals list a user appears in. Pending: requested, not approved and not rejected (spec 4
 * listed rejected users here too; issue #12.5 moves them to Rejected only). Approved: approved.
 * Rejected: role guest and not approved (rejected or revoked).
 */
export function inApprovalList(user: AccessFields, filter: ApprovalFilter): boolean {
  switch (filter) {
    case 'pending':
      return !!user.requested_access_date && user.approved !== true && user.role !== 'guest';
    case 'approved':
      return user.approved === true;
    case 'rejected':
      return user.role === 'guest' && user.approved !== true;
    default:
      return unreachable(filter, 'approval filter');
  }
}

/**
 * The actions a card offers: by the user's own state, not by the list it is shown in. A rejected
 * user who had asked for access can still be approved ('reconsider': no second Reject).
 */
export function approvalActions(user: AccessFields): 'decide' | 'reconsider' | 'revoke' | 'none' {
  if (user.approved === true) return 'revoke';
  if (!user.requested_access_date) return 'none';
  return user.role === 'guest' ? 'reconsider' : 'decide';
}
