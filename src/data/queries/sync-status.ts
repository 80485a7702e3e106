import { useLiveQuery } from 'dexie-react-hooks';
import type { ConflictRow, OutboxOp } from '../db';
import type { DataContext } from '../context';
import { useDataContext } from '../provider';
import { CURRENT_USER_KEY } from '../session';
import type { User } from '../../../shared/entities';
import { INITIAL_STATUS } from '../sync/status-store';
import { SYNC_STATUS_KEY, type EntityFirstSync, type PausedReason, type SyncStatusRow } from '../sync/types';

// The Sync page's actions (retry, discard, edit, resolve) are in commands/sync-ops.ts: re-exported here they
// would pull the write path into the header's JavaScript, which every first page loads (issue #11.6).

/** What the sync indicator and the Sync page show; live in every tab (S10). */
export interface SyncStatus {
  /**
   * False only in the placeholder shown before the live query first answers (a few ms after a page
   * opens): screens then show their loading skeletons, never an "incomplete" or "up to date" claim.
   */
  loaded: boolean;
  /** The server was reachable at the last attempt (and the browser thinks it is online). */
  online: boolean;
  syncing: boolean;
  /** Ops of the signed-in user not yet on the server (rejected ones included). */
  pending: number;
  lastSyncedAt: number | null;
  rejected: OutboxOp[];
  /** Open conflicts, newest first. */
  conflicts: ConflictRow[];
  /** 'auth' after a 401: sign in again; the queue is kept. */
  paused: PausedReason;
  /** A problem not tied to one op (e.g. storage full), or null. */
  lastError: string | null;
  /** Ops a previous user of this device left unsent (S11). */
  otherUserPending: number;
  /** First-sync progress per entity (issue #9.5); screens show skeletons/progress until complete. */
  firstSync: EntityFirstSync[];
  firstSyncComplete: boolean;
}

const LOADING: SyncStatus = {
  loaded: false,
  online: true,
  syncing: false,
  pending: 0,
  lastSyncedAt: null,
  rejected: [],
  conflicts: [],
  paused: null,
  lastError: null,
  otherUserPending: 0,
  firstSync: [],
  firstSyncComplete: false,
};

/** The engine's status row as stored (every tab reads the leader's, S10), defaults filled in. */
export async function readStatusRow({ db }: DataContext): Promise<SyncStatusRow> {
  const row = await db.meta.get(SYNC_STATUS_KEY);
  return { ...INITIAL_STATUS, ...(row?.value as Partial<SyncStatusRow> | undefined) };
}

/** Online as screens show it: the server was reachable at the last attempt and the browser agrees. */
export function onlineOf(status: Pick<SyncStatusRow, 'online'>): boolean {
  return status.online && (typeof navigator === 'undefined' || navigator.onLine !== false);
}

/**
 * Counts through the outbox's clear indexes; only rejected ops and open conflicts are read whole.
 * Every change of the outbox re-runs this in every tab (the header's sync chip): reading (and
 * unsealing, issue #14) every queued op each time made 1,000 offline changes cost 1,000 reads of
 * a growing queue while they were made, and again while they were sent.
 */
export async function readSyncStatus(ctx: DataContext): Promise<SyncStatus> {
  const { db } = ctx;
  const [status, userRow] = await Promise.all([readStatusRow(ctx), db.meta.get(CURRENT_USER_KEY)]);
  const userId = (userRow?.value as User | undefined)?.id ?? ctx.userId;
  const [all, pending, rejected, conflicts] = await Promise.all([
    db.outbox.count(),
    userId ? db.outbox.where('user_id').equals(userId).count() : 0,
    userId ? db.outbox.where('[user_id+state]').equals([userId, 'rejected']).toArray() : ([] as OutboxOp[]),
    db.conflicts.where('status').equals('open').toArray(),
  ]);
  return {
    loaded: true,
    online: onlineOf(status),
    syncing: status.syncing,
    pending,
    lastSyncedAt: status.lastSyncedAt,
    // In queue order: equal index keys come in primary-key (seq) order.
    rejected,
    conflicts: conflicts.sort((a, b) => b.detected_at - a.detected_at),
    paused: status.paused,
    lastError: status.lastError,
    otherUserPending: all - pending,
    firstSync: status.firstSync,
    firstSyncComplete: status.firstSyncComplete,
  };
}

export function useSyncStatus(): SyncStatus {
  const ctx = useDataContext();
  return useLiveQuery(() => readSyncStatus(ctx), [ctx], LOADING);
}
