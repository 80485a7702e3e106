import { RefreshCw } from 'lucide-react';
import { syncNow } from '../../data/commands/sync-now';
import { useDataContext } from '../../data/provider';
import type { SyncStatus } from '../../data/queries/sync-status';
import { countsOf, summarizeSync, syncedAgo } from '../../pwa/sync-summary';
import { useNow } from '../../pwa/use-now';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { FirstSyncProgress } from './first-sync-progress';

/** The top of the Sync page: one sentence of state, the last sync, 'Sync now', and any blocker. */
export function StatusPanel({ status }: { status: SyncStatus }) {
  const now = useNow();
  const data = useDataContext();
  const summary = summarizeSync(countsOf(status));
  const loginHref = `/login?from_url=${encodeURIComponent(typeof window === 'undefined' ? '/sync' : window.location.href)}`;

  return (
    <Card className="p-5">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm text-slate-600">Status</p>
          <p className="text-xl font-semibold text-slate-900" data-testid="sync-state">
            {summary.label}
          </p>
          <p className="text-sm text-slate-600">{syncedAgo(status.lastSyncedAt, now)}</p>
        </div>
        <Button onClick={() => syncNow(data)} disabled={status.syncing}>
          <RefreshCw className={status.syncing ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
          Sync now
        </Button>
      </div>
      <FirstSyncProgress status={status} />
      {!status.online && (
        <p className="mt-4 text-sm text-slate-700">
          Passage cannot reach the server. Keep working: every change is saved on this device and sent when the connection returns.
        </p>
      )}
      {status.paused === 'auth' && (
        <p role="alert" className="mt-4 text-sm text-amber-900">
          Your sign-in has expired, so nothing is being sent. Your changes are kept.{' '}
          <a className="font-medium text-blue-700 underline" href={loginHref}>
            Sign in again
          </a>
        </p>
      )}
      {status.lastError && (
        <p role="alert" className="mt-4 text-sm text-red-800">
          {status.lastError}
        </p>
      )}
      {status.otherUserPending > 0 && (
        <p className="mt-4 text-sm text-slate-700">
          {status.otherUserPending === 1 ? '1 change' : `${status.otherUserPending} changes`} by another user of this device are also waiting; they are sent when that
          person signs in here.
        </p>
      )}
    </Card>
  );
}
