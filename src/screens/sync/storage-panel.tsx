import { HardDrive } from 'lucide-react';
import { Panel } from '../../ui/card';
import { Badge } from '../../ui/badge';
import { Skeleton } from '../../ui/skeleton';
import { formatBytes } from '../../pwa/storage';
import type { StorageInfo } from '../../pwa/storage';

/** What 'Not persistent' means for a coach (issue #12.11). */
export const NOT_PERSISTENT_MEANING = "The browser may clear Passage's data when the device runs low on space, including changes not yet synced.";

/** Storage used on this device and whether the browser may evict it (S12). */
export function StoragePanel({ info }: { info: StorageInfo | undefined }) {
  return (
    <Panel title={<span className="flex items-center gap-2"><HardDrive className="h-5 w-5 text-slate-500" aria-hidden="true" />Storage on this device</span>}>
      {info === undefined ? (
        <Skeleton className="h-10 w-2/3" />
      ) : (
        <dl className="grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-slate-600">Used</dt>
            <dd className="mt-1 font-medium text-slate-900">
              {info.usage === null
                ? 'Not reported by this browser'
                : info.quota
                  ? `${formatBytes(info.usage)} of ${formatBytes(info.quota)}`
                  : formatBytes(info.usage)}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">Persistence</dt>
            <dd className="mt-1 flex flex-wrap items-center gap-3">
              {info.persisted === true && <Badge tone="green">Persistent</Badge>}
              {/* What it means and the button are in the warning at the top of the page (issue #12.11). */}
              {info.persisted === false && <Badge tone="amber">Not persistent</Badge>}
              {info.persisted === null && <span className="text-slate-700">Not reported by this browser</span>}
            </dd>
          </div>
        </dl>
      )}
    </Panel>
  );
}
