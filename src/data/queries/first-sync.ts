import { useMemo } from 'react';
import { useSyncStatus } from './sync-status';
import type { EntityName } from '../../../shared/entities';
import { pageReadiness, type PageReadiness } from './first-sync-rules';

export { PAGE_CORE, PAGE_NEEDS, firstSyncDone, pageReadiness, type PageReadiness, type PageSyncState } from './first-sync-rules';

/** Live readiness of a page that reads these entities (see pageReadiness). */
export function useFirstSync(needs: readonly EntityName[]): PageReadiness {
  const status = useSyncStatus();
  const key = needs.join(',');
  const { loaded, online, firstSync, firstSyncComplete, lastSyncedAt } = status;
  return useMemo(
    () => pageReadiness({ loaded, online, firstSync, firstSyncComplete, lastSyncedAt }, key.split(',') as EntityName[]),
    [loaded, online, firstSync, firstSyncComplete, lastSyncedAt, key],
  );
}
