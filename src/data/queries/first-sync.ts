import { useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { DataContext } from '../context';
import { useDataContext } from '../provider';
import { onlineOf, readStatusRow, type SyncStatus } from './sync-status';
import type { EntityName } from '../../../shared/entities';
import { pageReadiness, type PageReadiness } from './first-sync-rules';

export { PAGE_CORE, PAGE_NEEDS, firstSyncDone, pageReadiness, type PageReadiness, type PageSyncState } from './first-sync-rules';

type FirstSyncStatus = Pick<SyncStatus, 'loaded' | 'online' | 'firstSync' | 'firstSyncComplete' | 'lastSyncedAt'>;

const CHECKING: FirstSyncStatus = { loaded: false, online: true, firstSync: [], firstSyncComplete: false, lastSyncedAt: null };

/**
 * The first-sync part of the status: the status row alone. Pages call this next to the header's
 * useSyncStatus, which also counts the outbox and reads the open conflicts; this one does not.
 */
async function readFirstSyncStatus(ctx: DataContext): Promise<FirstSyncStatus> {
  const status = await readStatusRow(ctx);
  const { firstSync, firstSyncComplete, lastSyncedAt } = status;
  return { loaded: true, online: onlineOf(status), firstSync, firstSyncComplete, lastSyncedAt };
}

/** Live readiness of a page that reads these entities (see pageReadiness). */
export function useFirstSync(needs: readonly EntityName[]): PageReadiness {
  const ctx = useDataContext();
  const status = useLiveQuery(() => readFirstSyncStatus(ctx), [ctx], CHECKING);
  const key = needs.join(',');
  return useMemo(() => pageReadiness(status, key.split(',') as EntityName[]), [status, key]);
}
