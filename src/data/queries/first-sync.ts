import { useMemo } from 'react';
import { useSyncStatus } from './sync-status';
import type { EntityName } from '../../../shared/entities';
import { pageReadiness, type PageReadiness } from './first-sync-rules';

export { PAGE_CORE, PAGE_NEEDS, firstSyncDone, pageReadiness, type PageReadiness, type PageSyncState } from './first-sync-rules';

/**
 * Live readiness of a page that reads these entities (see pageReadiness), from the status every
 * component shares (useSyncStatus). The same readiness object while it reads the same: a queued
 * change re-reads the status (the outbox counts) but leaves a page's readiness as it was, so what
 * a page derives from it (memos, effects) does not run again.
 */
export function useFirstSync(needs: readonly EntityName[]): PageReadiness {
  const status = useSyncStatus();
  const json = JSON.stringify(pageReadiness(status, needs));
  return useMemo(() => JSON.parse(json) as PageReadiness, [json]);
}
