/**
 * What the header says about sync (issues #5.4, #9.6), as a pure function of counts, so the words
 * and their order of importance are tested without Dexie or a clock: exactly one label, never two
 * that contradict ('Up to date · Not synced yet', 'Syncing' while offline).
 */
import { firstSyncDone } from '../data/queries/first-sync-rules';
import { INCOMPLETE_OFFLINE } from '../ui/first-sync-text';

export type SyncState = 'checking' | 'offline' | 'incomplete' | 'attention' | 'first-sync' | 'syncing' | 'pending' | 'up-to-date';

export interface SyncCounts {
  /** The status has been read (false in the placeholder of the first few ms). */
  loaded: boolean;
  online: boolean;
  /** Every entity has completed its first pull on this device (issue #9.5). */
  firstSyncDone: boolean;
  syncing: boolean;
  /** Ops still to send (not rejected). */
  pending: number;
  /** Ops the server refused (S8): the coach must retry, edit or discard them. */
  rejected: number;
  /** Open conflicts (S4, S6): the coach must choose a value. */
  conflicts: number;
  /** The server said 401: sync waits for a new sign-in (S8). */
  paused: boolean;
}

export interface SyncSummary {
  state: SyncState;
  label: string;
  /** A shorter form for narrow headers (below 1024 px), when the label is a whole sentence. */
  short?: string;
}

export function pendingLabel(n: number): string {
  return `${n} pending`;
}

/** Online, first sync not finished and nothing running (a retry is scheduled). */
export const INCOMPLETE_ONLINE = 'Not all data is on this tablet yet';

/**
 * One state, by what the coach most needs to know. Offline comes first: nothing can reach the
 * server, and saying 'Syncing' or 'Up to date' then would be false — and a tablet whose first
 * download was cut off must say that its lists are not whole. Needs attention comes next: those
 * ops will not go by themselves, however long the coach waits. Then the first download, which
 * makes every list incomplete until it ends.
 */
export function summarizeSync(c: SyncCounts): SyncSummary {
  if (!c.loaded) return { state: 'checking', label: 'Checking sync…' };
  if (!c.online) {
    if (!c.firstSyncDone) return { state: 'incomplete', label: INCOMPLETE_OFFLINE, short: 'Offline · Not all data yet' };
    return { state: 'offline', label: c.pending > 0 ? `Offline · ${pendingLabel(c.pending)}` : 'Offline' };
  }
  if (c.rejected > 0 || c.conflicts > 0 || c.paused) return { state: 'attention', label: 'Needs attention' };
  if (!c.firstSyncDone) return c.syncing ? { state: 'first-sync', label: 'Downloading data' } : { state: 'incomplete', label: INCOMPLETE_ONLINE, short: 'Not all data yet' };
  if (c.syncing) return { state: 'syncing', label: 'Syncing' };
  if (c.pending > 0) return { state: 'pending', label: pendingLabel(c.pending) };
  return { state: 'up-to-date', label: 'Up to date' };
}

/** 'Synced just now', 'Synced 2 min ago', 'Synced 3 h ago', 'Synced 2 days ago', 'Not synced yet'. */
export function syncedAgo(lastSyncedAt: number | null | undefined, now: number): string {
  if (lastSyncedAt == null) return 'Not synced yet';
  const seconds = Math.max(0, Math.floor((now - lastSyncedAt) / 1000));
  if (seconds < 60) return 'Synced just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `Synced ${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `Synced ${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `Synced ${days} ${days === 1 ? 'day' : 'days'} ago`;
}

/** The counts of the data layer's live status (its `pending` includes rejected ops; ours does not). */
export function countsOf(status: {
  loaded: boolean;
  online: boolean;
  syncing: boolean;
  pending: number;
  rejected: readonly unknown[];
  conflicts: readonly unknown[];
  paused: string | null;
  firstSync: readonly unknown[];
  firstSyncComplete: boolean;
  lastSyncedAt: number | null;
}): SyncCounts {
  return {
    loaded: status.loaded,
    online: status.online,
    firstSyncDone: firstSyncDone(status),
    syncing: status.syncing,
    pending: Math.max(0, status.pending - status.rejected.length),
    rejected: status.rejected.length,
    conflicts: status.conflicts.length,
    paused: status.paused !== null,
  };
}
