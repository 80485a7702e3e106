import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import { StatCard } from '../../ui/stat-card';

/** Pending / Approved / Rejected totals at the top of the approvals page. */
export function ApprovalCounts({ pending, approved, rejected }: { pending: number; approved: number; rejected: number }) {
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-3">
      <StatCard label="Pending" value={pending} icon={<Clock aria-hidden="true" className="h-5 w-5" />} />
      <StatCard label="Approved" value={approved} icon={<CheckCircle2 aria-hidden="true" className="h-5 w-5" />} />
      <StatCard label="Rejected" value={rejected} icon={<XCircle aria-hidden="true" className="h-5 w-5" />} />
    </div>
  );
}
