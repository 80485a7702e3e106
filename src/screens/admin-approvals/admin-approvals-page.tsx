import { useMemo, useState } from 'react';
import { useCurrentUser } from '../../shell-api/current-user';
import { useAdminUsers } from '../../data/online/admin-users';
import type { User } from '../../../shared/entities';
import { inApprovalList, type ApprovalFilter } from '../../domain/access';
import { EmptyState } from '../../ui/empty-state';
import { SelectField } from '../../ui/field';
import { PageHeader } from '../../ui/page-header';
import { SkeletonCards } from '../../ui/skeleton';
import { ApprovalCard, type ApprovalAction } from './approval-card';
import { ApprovalCounts } from './approval-counts';
import { DevicesPanel } from './devices-panel';
import { useCommand } from '../parts/use-command';
import { APPROVAL_TOASTS, runApproval } from './run-approval';

const FILTERS: { value: ApprovalFilter; label: string }[] = [
  { value: 'pending', label: 'Pending Approval' },
  { value: 'approved', label: 'Approved Coaches' },
  { value: 'rejected', label: 'Rejected Users' },
];

/** AdminApprovals (spec.md 2.15): counts, a filter, one card per user, the access decisions, then the signed-in tablets (issue #21.2). */
export function AdminApprovalsPage() {
  const me = useCurrentUser();
  const isAdmin = me?.role === 'admin';
  // Online only (data/online): the server's list, or the device copy when it cannot be reached.
  const { users, fromDevice, error, refresh } = useAdminUsers(isAdmin);
  const [filter, setFilter] = useState<ApprovalFilter>('pending');
  const approval = useCommand((data, user: User, action: ApprovalAction) => runApproval(data, action, user, me?.email ?? ''), {
    success: (_, _user, action) => APPROVAL_TOASTS[action].ok,
    failure: (_user, action) => APPROVAL_TOASTS[action].fail,
    // spec 2.15: the list is refreshed after each successful action.
    onSuccess: () => refresh(),
    // Another person's decision, asked while the list refreshes, runs next instead of being lost.
    serial: true,
  });
  const busyId = approval.running?.[0].id ?? null;

  const counts = useMemo(() => {
    const all = users ?? [];
    const count = (f: ApprovalFilter) => all.filter((u) => inApprovalList(u, f)).length;
    return { pending: count('pending'), approved: count('approved'), rejected: count('rejected') };
  }, [users]);

  if (!isAdmin || !me) {
    return (
      <div className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-xl font-semibold text-slate-900">You don't have permission to view this page</h1>
      </div>
    );
  }

  const shown = (users ?? []).filter((u) => inApprovalList(u, filter));
  return (
    <div>
      <PageHeader title="Coach Profiles & Approvals" subtitle="Review and approve reentry coach access requests" />
      <ApprovalCounts {...counts} />
      <div className="mb-6 max-w-xs">
        <SelectField label="Show" options={FILTERS} value={filter} onChange={(e) => setFilter(e.target.value as ApprovalFilter)} />
      </div>
      {fromDevice && (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          You are offline: this is the list as this device last saw it. Approvals need a connection.
        </p>
      )}
      {error && (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 p-3 text-sm text-red-800">
          Could not load users: {error}
        </p>
      )}
      {users === undefined ? (
        <SkeletonCards count={3} className="grid gap-4" label="Loading users" />
      ) : shown.length === 0 ? (
        <EmptyState title={`No ${filter} users`} />
      ) : (
        <div className="grid gap-4">
          {shown.map((user) => (
            <ApprovalCard key={user.id} user={user} busy={busyId === user.id} isSelf={user.id === me.id} onAction={(a) => void approval.run(user, a)} />
          ))}
        </div>
      )}
      <DevicesPanel meId={me.id} />
    </div>
  );
}
