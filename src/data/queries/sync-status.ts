import { useCallback, useSyncExternalStore } from 'react';
import { liveQuery, type Subscription } from 'dexie';
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
 * a growing queue while they were made, and again while they were sent. One read-only
 * transaction for the six reads: each transaction is a round trip to the browser's storage
 * process, and this ran six per status write (see useSyncStatus).
 */
export function readSyncStatus(ctx: DataContext): Promise<SyncStatus> {
  const { db } = ctx;
  return db.transaction('r', db.meta, db.outbox, db.conflicts, async () => {
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
  });
}

/**
 * One live reading of the status per data context, shared by every component that shows it (the
 * header's chip, the Dashboard's card, the Sync page, every page's first-sync state through
 * useFirstSync). A live query per component re-ran the same reads once per component on every
 * status write: a first sign-in ran them 52 times each in two queries, 364 of its 579 IndexedDB
 * transactions (issue #27.5). It starts with the first component that shows it and stops with the
 * last; a later first one starts from LOADING again, never from a stale reading.
 */
interface StatusFeed {
  /** Replaced on every answer or failure, so React sees each one (useSyncExternalStore). */
  state: { value: SyncStatus; error: unknown };
  listeners: Set<() => void>;
  subscription: Subscription | null;
}

const NOT_READ = { value: LOADING, error: null };

const feeds = new WeakMap<DataContext, StatusFeed>();

function feedOf(ctx: DataContext): StatusFeed {
  let feed = feeds.get(ctx);
  if (!feed) feeds.set(ctx, (feed = { state: NOT_READ, listeners: new Set(), subscription: null }));
  return feed;
}

function subscribeStatus(ctx: DataContext, listener: () => void): () => void {
  const feed = feedOf(ctx);
  feed.listeners.add(listener);
  if (!feed.subscription) {
    const tell = () => feed.listeners.forEach((l) => l());
    feed.subscription = liveQuery(() => readSyncStatus(ctx)).subscribe({
      next: (value) => {
        feed.state = { value, error: null };
        tell();
      },
      // A failed reading ends the live query: the next component to subscribe (the error page's
      // Try again) starts a new one, as useLiveQuery did on its remount.
      error: (error: unknown) => {
        feed.state = { value: feed.state.value, error };
        feed.subscription = null;
        tell();
      },
    });
  }
  return () => {
    feed.listeners.delete(listener);
    if (feed.listeners.size) return;
    feed.subscription?.unsubscribe();
    feed.subscription = null;
    feed.state = NOT_READ;
  };
}

/** The live sync status (one shared reading per data context, see StatusFeed). */
export function useSyncStatus(): SyncStatus {
  const ctx = useDataContext();
  const subscribe = useCallback((listener: () => void) => subscribeStatus(ctx, listener), [ctx]);
  const feed = feedOf(ctx);
  const { value, error } = useSyncExternalStore(subscribe, () => feed.state, () => NOT_READ);
  // As useLiveQuery did: a failed reading goes to the nearest error boundary.
  if (error) throw error;
  return value;
}
