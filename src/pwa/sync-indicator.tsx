import clsx from 'clsx';
import { Link } from '@tanstack/react-router';
import { AlertTriangle, CheckCircle2, CloudDownload, CloudOff, Loader2, RefreshCw, UploadCloud } from 'lucide-react';
import { syncNow } from '../data/commands/sync-now';
import { useDataContext } from '../data/provider';
import { useSyncStatus } from '../data/queries/sync-status';
import { downloadingLine } from '../ui/first-sync-text';
import { countsOf, summarizeSync, syncedAgo, type SyncState } from './sync-summary';
import { useNow } from './use-now';

import { SYNC_PATH } from './sync-path';

const LOOK: Record<SyncState, { icon: typeof CheckCircle2; tone: string }> = {
  checking: { icon: Loader2, tone: 'bg-slate-50 text-slate-600 ring-slate-200' },
  incomplete: { icon: CloudOff, tone: 'bg-amber-50 text-amber-900 ring-amber-300' },
  'first-sync': { icon: CloudDownload, tone: 'bg-blue-50 text-blue-800 ring-blue-300' },
  offline: { icon: CloudOff, tone: 'bg-slate-100 text-slate-700 ring-slate-300' },
  attention: { icon: AlertTriangle, tone: 'bg-amber-50 text-amber-900 ring-amber-300' },
  syncing: { icon: Loader2, tone: 'bg-blue-50 text-blue-800 ring-blue-300' },
  pending: { icon: UploadCloud, tone: 'bg-blue-50 text-blue-800 ring-blue-300' },
  'up-to-date': { icon: CheckCircle2, tone: 'bg-emerald-50 text-emerald-800 ring-emerald-300' },
};

/**
 * The header's sync status (issue #5.4): the state and the last sync time, a link to the Sync page
 * and 'Sync now'. Live in every tab, since the status is read from Dexie (S10).
 */
export function SyncIndicator() {
  const data = useDataContext();
  const status = useSyncStatus();
  const now = useNow();
  const summary = summarizeSync(countsOf(status));
  const { icon: Icon, tone } = LOOK[summary.state];
  // The second line: progress during the first download, else when the last sync was (nothing
  // before the first one — 'Up to date · Not synced yet' would contradict itself).
  const downloading = status.firstSync.find((e) => !e.done);
  const detail =
    summary.state === 'first-sync' && downloading
      ? downloadingLine(downloading)
      : status.lastSyncedAt != null && summary.state !== 'checking'
        ? syncedAgo(status.lastSyncedAt, now)
        : null;

  return (
    <div className="flex items-center gap-1" data-testid="sync-indicator" data-sync-state={summary.state}>
      <Link
        to={SYNC_PATH}
        className={clsx('inline-flex min-h-10 items-center gap-2 whitespace-nowrap rounded-full touch:min-h-11 px-3 py-1 text-sm ring-1 ring-inset hover:brightness-95', tone)}
      >
        {/* The name comes from the content (no aria-label), so what a sighted voice-control user
            reads on the chip is part of the name (axe: label-content-name-mismatch). */}
        <Icon className={clsx('h-4 w-4 shrink-0', (summary.state === 'syncing' || summary.state === 'checking') && 'animate-spin')} aria-hidden="true" />
        <span className="sr-only">Sync status: </span>
        {summary.short ? (
          <>
            <span className="font-medium lg:hidden">{summary.short}</span>
            <span className="hidden font-medium lg:inline">{summary.label}</span>
          </>
        ) : (
          <span className="font-medium">{summary.label}</span>
        )}
        {detail && (
          <>
            <span className="sr-only">. </span>
            <span className="sr-only text-xs opacity-80 lg:not-sr-only">{detail}</span>
          </>
        )}
        <span className="sr-only">. Open the Sync page</span>
      </Link>
      <button
        type="button"
        onClick={() => syncNow(data)}
        // Enabled offline too: 'online' is only the last attempt's result (S9), and pressing it is
        // how a coach who just walked into Wi-Fi checks without waiting for the next 60 s tick.
        disabled={status.syncing}
        className="inline-flex h-10 w-10 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 disabled:opacity-40"
        aria-label="Sync now"
        title="Sync now"
      >
        <RefreshCw className="h-4 w-4" aria-hidden="true" />
      </button>
    </div>
  );
}
