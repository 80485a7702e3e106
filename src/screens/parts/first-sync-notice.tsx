import { CloudOff, Loader2 } from 'lucide-react';
import type { PageReadiness } from '../../data/queries/first-sync';
import { INCOMPLETE_OFFLINE, downloadingLine, stillToDownload } from '../../ui/first-sync-text';

/**
 * The first-sync line above a page (issue #9.5): while the first download runs, which entity and
 * how far ("Downloading participants… 4,000 of 10,000", with a bar when the total is known);
 * offline with the download cut off, "Not all data is on this tablet yet: connect to finish" and
 * what is missing. Nothing once the page's data is complete.
 */
export function FirstSyncNotice({ readiness }: { readiness: PageReadiness }) {
  const [current] = readiness.waiting;
  if (!current) return null;
  if (readiness.state === 'downloading') {
    const share = readiness.progressKnown && current.total ? Math.min(1, current.rows / current.total) : null;
    return (
      <div role="status" data-testid="first-sync-notice" className="mb-6 rounded-xl border border-blue-200 bg-blue-50 px-4 py-3 text-blue-900">
        <p className="flex items-center gap-2 text-sm font-medium">
          <Loader2 aria-hidden="true" className="h-4 w-4 shrink-0 animate-spin" />
          {readiness.progressKnown ? downloadingLine(current) : 'Downloading data…'}
        </p>
        {share != null && (
          <div aria-hidden="true" className="mt-2 h-1.5 overflow-hidden rounded-full bg-blue-100">
            <div className="h-full rounded-full bg-blue-600 transition-[width]" style={{ width: `${Math.round(share * 100)}%` }} />
          </div>
        )}
        <p className="mt-1 text-xs text-blue-800">First sync of this tablet: the lists fill in when it is done.</p>
      </div>
    );
  }
  if (readiness.state === 'incomplete') {
    return (
      <div role="status" data-testid="first-sync-notice" className="mb-6 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
        <p className="flex items-center gap-2 text-sm font-semibold">
          <CloudOff aria-hidden="true" className="h-4 w-4 shrink-0" />
          {INCOMPLETE_OFFLINE}
        </p>
        {readiness.progressKnown && <p className="mt-1 text-sm">{stillToDownload(readiness.waiting.map((w) => w.entity))}</p>}
      </div>
    );
  }
  return null;
}
