import { useCurrentUser } from '../../shell-api/current-user';
import { useSyncStatus } from '../../data/queries/sync-status';
import { Panel } from '../../ui/card';
import { PageHeader } from '../../ui/page-header';
import { ConflictCard } from './conflict-card';
import { PendingList } from './pending-list';
import { RejectedOpCard } from './rejected-op-card';
import { StatusPanel } from './status-panel';
import { AlertTriangle } from 'lucide-react';
import { Button } from '../../ui/button';
import { NOT_PERSISTENT_MEANING, StoragePanel } from './storage-panel';
import { SitesOnTabletPanel } from './sites-panel';
import { useStorageInfo } from './use-storage-info';
import { refKey, usePendingOps, useRecordTitles } from '../../data/queries/sync';

/**
 * The Sync page (route /sync, issue #5.4): what this device still has to send, what the server
 * refused and why, the conflicts waiting for a choice, the sites this tablet holds (issue #22), and
 * the storage the data takes.
 */
export function SyncPage() {
  const user = useCurrentUser();
  const status = useSyncStatus();
  const pending = usePendingOps(user?.id ?? null);
  const titles = useRecordTitles([...(pending ?? []), ...status.rejected, ...status.conflicts]);
  const storage = useStorageInfo();

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader title="Sync" subtitle="Changes made on this device and their way to the server" />
      {storage.info?.persisted === false && (
        // Issue #12.11: at the top, not only in the storage panel at the bottom of the page.
        <div role="status" aria-label="Storage warning" className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4">
          <span className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900 ring-1 ring-amber-300 ring-inset">
            <AlertTriangle aria-hidden="true" className="h-4 w-4" />
            Not persistent
          </span>
          <p className="min-w-0 flex-1 basis-80 text-sm text-amber-900">{NOT_PERSISTENT_MEANING}</p>
          <Button variant="secondary" onClick={() => void storage.askPersistent()}>
            Keep data on this device
          </Button>
        </div>
      )}
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
      <SitesOnTabletPanel />
      <StoragePanel info={storage.info} />
    </div>
  );
}
