import { useCurrentUser } from '../../app/current-user';
import { useSyncStatus } from '../../data/queries/sync-status';
import { Panel } from '../../ui/card';
import { PageHeader } from '../../ui/page-header';
import { ConflictCard } from './conflict-card';
import { PendingList } from './pending-list';
import { RejectedOpCard } from './rejected-op-card';
import { StatusPanel } from './status-panel';
import { StoragePanel } from './storage-panel';
import { refKey, usePendingOps, useRecordTitles } from '../../data/queries/sync';

/**
 * The Sync page (route /sync, issue #5.4): what this device still has to send, what the server
 * refused and why, the conflicts waiting for a choice, and the storage the data takes.
 */
export function SyncPage() {
  const user = useCurrentUser();
  const status = useSyncStatus();
  const pending = usePendingOps(user?.id ?? null);
  const titles = useRecordTitles([...(pending ?? []), ...status.rejected, ...status.conflicts]);

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader title="Sync" subtitle="Changes made on this device and their way to the server" />
      <StatusPanel status={status} />
      {status.rejected.length > 0 && (
        <Panel title={`Needs attention (${status.rejected.length})`}>
          <p className="mb-3 text-sm text-slate-600">The server refused these changes. Other changes keep syncing; these wait for you.</p>
          <ul className="space-y-3" aria-label="Rejected changes">
            {status.rejected.map((op) => (
              <RejectedOpCard key={op.seq} op={op} title={titles ? (titles.get(refKey(op)) ?? null) : undefined} />
            ))}
          </ul>
        </Panel>
      )}
      {status.conflicts.length > 0 && (
        <Panel title={`Conflicts (${status.conflicts.length})`}>
          <p className="mb-3 text-sm text-slate-600">Someone else changed the same field. Your value was kept; choose which one stays.</p>
          <ul className="space-y-3" aria-label="Conflicts">
            {status.conflicts.map((c) => (
              <ConflictCard key={c.id} conflict={c} title={titles ? (titles.get(refKey(c)) ?? null) : undefined} />
            ))}
          </ul>
        </Panel>
      )}
      {pending === undefined ? null : <PendingList ops={pending} titles={titles} />}
      <StoragePanel />
    </div>
  );
}
