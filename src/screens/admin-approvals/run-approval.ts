import { approveUser, rejectUser, revokeUser } from '../../data/online/approvals';
import { OfflineError } from '../../data/errors';
import type { User } from '../../../shared/entities';
import type { ApprovalAction } from './approval-card';

/** The toast texts of spec.md 8 for each action's success and failure. */
export const APPROVAL_TOASTS: Record<ApprovalAction, { ok: string; fail: string }> = {
  'approve-coach': { ok: 'User approved successfully!', fail: 'Failed to approve user' },
  'approve-admin': { ok: 'User approved successfully!', fail: 'Failed to approve user' },
  reject: { ok: 'User access revoked', fail: 'Failed to update user' },
  revoke: { ok: 'User access revoked', fail: 'Failed to update user' },
};

export type ApprovalOutcome = { ok: true; message: string } | { ok: false; message: string };

/** Runs one action; offline, the data layer's own message explains why nothing happened. */
export async function runApproval(action: ApprovalAction, user: User, adminEmail: string): Promise<ApprovalOutcome> {
  try {
    switch (action) {
      case 'approve-coach':
        await approveUser(user, 'user', adminEmail);
        break;
      case 'approve-admin':
        await approveUser(user, 'admin', adminEmail);
        break;
      case 'reject':
        await rejectUser(user);
        break;
      case 'revoke':
        await revokeUser(user);
        break;
      default: {
        const never: never = action;
        throw new Error(`Unknown approval action ${String(never)}`);
      }
    }
    return { ok: true, message: APPROVAL_TOASTS[action].ok };
  } catch (error) {
    if (error instanceof OfflineError) return { ok: false, message: error.message };
    console.error(`Approval action ${action} failed`, error);
    return { ok: false, message: APPROVAL_TOASTS[action].fail };
  }
}
