import { OfflineReadinessLine } from './offline-readiness-line';
import { SyncIndicator } from './sync-indicator';

/**
 * What the PWA puts in the header's status slot (src/app/shell-slots.tsx): "ready to work offline"
 * and the sync chip. Its own chunk, fetched with the app's layout (src/app/screens.ts), so a first
 * page that is the PIN screen does not wait for it (issue #11.6).
 */
export function HeaderStatus() {
  return (
    <>
      <OfflineReadinessLine />
      <SyncIndicator />
    </>
  );
}
