/**
 * What the header says about sync (issue #5.4), as a pure function of counts, so the words and
 * their order of importance are tested without Dexie or a clock.
 */

export type SyncState = 'offline' | 'attention' | 'syncing' | 'pending' | 'up-to-date';

export interface SyncCounts {
  online: boolean;
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
}

export function pendingLabel(n: number): string {
  return `${n} pending`;
}

/**
 * One state, by what the coach most needs to know. Offline comes first: nothing can reach the
 * server, and saying 'Syncing' or 'Up to date' then would be false. Needs attention comes next:
 * those ops will not go by themselves, however long the coach waits.
 */
export function summarizeSync(c: SyncCounts): SyncSummary {
  if (!c.online) return { state: 'offline', label: c.pending > 0 ? `Offline · ${pendingLabel(c.pending)}` : 'Offline' };
  if (c.rejected > 0 || c.conflicts > 0 || c.paused) return { state: 'attention', label: 'Needs attention' };
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
  online: boolean;
  syncing: boolean;
  pending: number;
  rejected: readonly unknown[];
  conflicts: readonly unknown[];
  paused: string | null;
}): SyncCounts {
  return {
    online: status.online,
    syncing: status.syncing,
    pending: Math.max(0, status.pending - status.rejected.length),
    rejected: status.rejected.length,
    conflicts: status.conflicts.length,
    paused: status.paused !== null,
  };
}
