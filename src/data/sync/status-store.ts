/**
 * The leader keeps its status in the meta table so every tab shows the same thing (S10). Writes
 * only when something changed: a live query in every tab re-runs on each write.
 */
import type { PassageDB } from '../db';
import { SYNC_STATUS_KEY, type SyncStatusRow } from './types';

/** The status before the engine wrote one. */
export const INITIAL_STATUS: SyncStatusRow = {
  online: true,
  syncing: false,
  lastSyncedAt: null,
  paused: null,
  leader: false,
  lastError: null,
  firstSync: [],
  firstSyncComplete: false,
};

export class StatusStore {
  private current: SyncStatusRow = { ...INITIAL_STATUS };

  constructor(private readonly db: PassageDB) {}

  get value(): SyncStatusRow {
    return this.current;
  }

  /** Start from what an earlier session stored (lastSyncedAt survives reloads). */
  async load(): Promise<void> {
    const row = await this.db.meta.get(SYNC_STATUS_KEY);
    if (row?.value) this.current = { ...INITIAL_STATUS, ...(row.value as Partial<SyncStatusRow>) };
  }

  async set(patch: Partial<SyncStatusRow>): Promise<void> {
    const next = { ...this.current, ...patch };
    // Arrays (first-sync progress) by content: the pull reports after every page, and an unchanged
    // report must not rewrite meta (each write re-runs every tab's status queries).
    const changed = (Object.keys(next) as Array<keyof SyncStatusRow>).some((k) =>
      Array.isArray(next[k]) ? JSON.stringify(next[k]) !== JSON.stringify(this.current[k]) : next[k] !== this.current[k],
    );
    this.current = next;
    if (changed) await this.db.meta.put({ key: SYNC_STATUS_KEY, value: next });
  }
}
