import { CheckCircle2, CircleDashed } from 'lucide-react';
import { firstSyncDone } from '../../data/queries/first-sync';
import type { SyncStatus } from '../../data/queries/sync-status';
import { entityPlural } from '../../ui/first-sync-text';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The first download of this tablet, entity by entity (issue #9.5): what is here, what is still
 * coming and how far along it is. Shown on the Sync page until the first sync is complete, when
 * the engine reports progress per entity.
 */
export function FirstSyncProgress({ status }: { status: SyncStatus }) {
  if (!status.loaded || firstSyncDone(status) || status.firstSync.length === 0) return null;
  return (
    <section aria-labelledby="first-sync-heading" className="mt-4 border-t border-slate-100 pt-4">
      <h2 id="first-sync-heading" className="text-sm font-semibold text-slate-900">
        First download of this tablet
      </h2>
      <ul className="mt-2 grid gap-1 text-sm text-slate-700 sm:grid-cols-2">
        {status.firstSync.map((e) => (
          <li key={e.entity} className="flex items-center gap-2">
            {e.done ? (
              <CheckCircle2 aria-hidden="true" className="h-4 w-4 shrink-0 text-emerald-700" />
            ) : (
              <CircleDashed aria-hidden="true" className="h-4 w-4 shrink-0 text-slate-500" />
            )}
            <span className="capitalize">{entityPlural(e.entity)}</span>
            <span className="text-slate-600">
              {e.done ? `${count(e.rows)} · done` : e.total != null ? `${count(Math.min(e.rows, e.total))} of ${count(e.total)}` : `${count(e.rows)} so far`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
