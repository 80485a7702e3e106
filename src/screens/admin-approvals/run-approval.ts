import { approveUser, rejectUser, revokeUser } from '../../data/online/approvals';
import type { User } from '../../../shared/entities';
import { unreachable } from '../../domain/unreachable';
import type { DeviceData } from '../parts/use-command';
import type { ApprovalAction } from './approval-card';

/** The toast texts of spec.md 8 for each action's success and failure. */
export const APPROVAL_TOASTS: Record<ApprovalAction, { ok: string; fail: string }> = {
  'approve-coach': { ok: 'User approved successfully!', fail: 'Failed to approve user' },
  'approve-admin': { ok: 'User approved successfully!', fail: 'Failed to approve user' },
  reject: { ok: 'User access revoked', fail: 'Failed to update user' },
  revoke: { ok: 'User access revoked', fail: 'Failed to update user' },
};

/** Runs one action online (data/online/approvals); throws what the data layer throws (OfflineError: offline). */
export async function runApproval(data: DeviceData, action: ApprovalAction, user: User, adminEmail: string): Promise<void> {
  switch (action) {
    case 'approve-coach':
      await approveUser(data, user, 'user', adminEmail);
      return;
    case 'approve-admin':
      await approveUser(data, user, 'admin', adminEmail);
      return;
    case 'reject':
      await rejectUser(data, user);
      return;
    case 'revoke':
      await revokeUser(data, user);
      return;
    default:
      return unreachable(action, 'approval action');
  }
}
