import type { PassageDB } from '../db';
import type { Row } from '../platform-like';
import type { EntityName } from '../../../shared/entities';
import type { ScopeOwner, ScopePullAnswer, ScopePullRequest } from './scope';
import type { ChangeFeedAnswer, ChangeFeedRequest } from '../../../shared/change-feed';

export type { Row };

/**
 * What the engine needs from the network. The platform adapter (platform-transport.ts) and the
 * tests' scripted transport implement it. Failures are thrown as `{ status?, message, code?,
 * retryAfterSeconds? }` (PlatformError's shape): status undefined means no answer arrived.
 */
export interface SyncTransport {
  create(entity: EntityName, body: Record<string, unknown>, meta?: WriteMeta): Promise<Row>;
  /** All or nothing (platform-contract 2: one transaction); rows come back in input order. */
  bulkCreate(entity: EntityName, bodies: Record<string, unknown>[], meta?: WriteMeta): Promise<Row[]>;
  update(entity: EntityName, id: string, data: Record<string, unknown>, meta?: WriteMeta): Promise<Row>;
  /** Partial updates of many records (≤500), all or nothing (platform-contract 2). */
  bulkUpdate(entity: EntityName, rows: Array<Record<string, unknown> & { id: string }>, meta?: WriteMeta): Promise<Row[]>;
  remove(entity: EntityName, id: string, meta?: WriteMeta): Promise<void>;
  /** The server's current rows for these ids (absent ids are simply missing from the answer). */
  fetchMany(entity: EntityName, ids: string[]): Promise<Row[]>;
  filter(
    entity: EntityName,
    q: Record<string, unknown>,
    sort: string,
    limit: number,
    skip?: number,
    fields?: string[],
  ): Promise<Row[]>;
  /**
   * How many rows match (`GET /count`): a first pull's total, a coach's cheap check of users.
   * Optional: without it the engine shows no totals and reads a projection in full each pull.
   */
  count?(entity: EntityName, q?: Record<string, unknown>): Promise<number>;
  /**
   * Issue #22.5, optional: the whole scope in one request (Passage's server function `scopePull`).
   * Resolves null when the server does not offer it; throws like any request otherwise (413: the
   * scope is too large for one answer).
   */
  pullScope?(request: ScopePullRequest): Promise<ScopePullAnswer | null>;
  /**
   * Issue #24.1 (S17), optional: every change since a cursor in one request (Passage's server
   * function `changeFeed`). Resolves null when the server does not offer it; throws like any request
   * otherwise (410 CURSOR_EXPIRED: the server can no longer serve that cursor).
   */
  changeFeed?(request: ChangeFeedRequest): Promise<ChangeFeedAnswer | null>;
  /**
   * Issue #24.2 (S18), optional: Passage's change stream, open until `signal` aborts or the server
   * ends it. Throws like any request when it cannot open (404: a server without it).
   */
  openEvents?(signal: AbortSignal): AsyncIterable<ServerNotice>;
  /**
   * Issue #26, optional: report a CSV export to the audit (`auditExport`). Resolves false when the
   * server does not offer it (a plain platform: nothing to report to); throws like any request.
   */
  reportExport?(notice: ExportNotice): Promise<boolean>;
}

/**
 * Issue #26: what a write tells the server's audit beside its body (an optional extension; a plain
 * platform ignores it). `editTimes`: when the person made each record's change on the device, ISO
 * date-times aligned with the body's records (one for a single record or a delete), null when not
 * known. `resolvesConflict`: the update is a person's answer to a conflict.
 */
export interface WriteMeta {
  editTimes: Array<string | null>;
  resolvesConflict?: boolean;
}

/**
 * Issue #26: a CSV export to report to the server's audit (`auditExport`), kept on the device until
 * the server has it (sync/export-notices.ts).
 */
export interface ExportNotice {
  kind: string;
  row_count: number;
  filters?: Record<string, unknown>;
  /** When the file was made, on the device (ISO). */
  exported_at: string;
}

/**
 * What the change stream says (S18): records changed (entities [] = anything may have), or only
 * that it is alive (a keep-alive comment, the server's `retry:`), which tells a healthy stream
 * from one a proxy holds back.
 */
/**
 * S18: what the change stream says. `revoked`: an administrator revoked this tablet (the stream
 * ends after it; deviceStatus says the mode and the reason, revocation.ts asks at once).
 */
export type ServerNotice = { kind: 'changed'; entities: string[] } | { kind: 'revoked' } | { kind: 'alive' };

/**
 * Issue #9.10: what an update overwrote on the server, when the server says so (Passage's server
 * does, the platform may not). The platform client attaches it to each answered record under this
 * registered symbol (src/platform/previous-values.ts); the engine reads it with previousOf.
 */
export const PREVIOUS_VALUES = Symbol.for('passage.previous-values');

export interface PreviousValues {
  updated_date: string | null;
  values: Record<string, unknown>;
}

export function previousOf(row: Row | undefined): PreviousValues | undefined {
  return row ? ((row as Record<symbol, unknown>)[PREVIOUS_VALUES] as PreviousValues | undefined) : undefined;
}

/** Time, injected (S14): tests drive it by hand, the runtime passes Date.now and setTimeout. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** navigator.locks' shape: the callback holds the lock until its promise settles (S10). */
export interface LockManagerLike {
  request(name: string, callback: () => Promise<void>): Promise<unknown>;
}

export type PausedReason = 'auth' | null;

/**
 * First-sync progress of one entity (issue #9.5): rows written to the mirror so far, and how many
 * the server has when it can tell (`GET /count`), else null. `done` once its first pull finished.
 */
export interface EntityFirstSync {
  entity: EntityName;
  done: boolean;
  rows: number;
  total: number | null;
}

/** Persisted in meta so every tab (leader or not) shows the same status (S10). */
export interface SyncStatusRow {
  online: boolean;
  syncing: boolean;
  lastSyncedAt: number | null;
  paused: PausedReason;
  /** Whether this device has a tab syncing (the leader). */
  leader: boolean;
  /** A problem not tied to one op (storage full, server errors), for the Sync page. */
  lastError: string | null;
  /**
   * The first sync of this device for this user, every entity in pull order ([] until an engine
   * first led on this device). Derived from syncState (sync/first-sync.ts), which each pulled page
   * commits with its rows, so it survives reloads and crashes exactly.
   */
  firstSync: EntityFirstSync[];
  /**
   * Every entity has completed its first pull for this user, or is one this user may not read.
   * Stays true afterwards, except when an entity refused before (an account awaiting approval)
   * becomes readable: its first download then shows until it is done.
   */
  firstSyncComplete: boolean;
}

export const SYNC_STATUS_KEY = 'syncStatus';

export interface EngineOptions {
  db: PassageDB;
  transport: SyncTransport;
  clock: Clock;
  /** The signed-in user: only their ops are pushed (S11). */
  userId: string;
  /** [0, 1) for backoff jitter; defaults to a seeded generator, never Math.random (S14). */
  random?: () => number;
  lock?: LockManagerLike | null;
  /** Pull order: small tables first so screens fill in usefully. */
  entities?: EntityName[];
  /**
   * Issue #22: hold this user's sites (sync/scope.ts) instead of the whole academy. Absent or null:
   * every row of every entity, unfiltered (the engine before scopes; tests of other rules).
   */
  scope?: ScopeOwner | null;
  /** Overrides for tests; defaults documented in engine.ts. */
  tuning?: Partial<EngineTuning>;
}

export interface EngineTuning {
  pageSize: number;
  overlapMs: number;
  debounceMs: number;
  periodicMs: number;
  /**
   * While the server cannot be reached and the browser has not said it is offline, how often a
   * single small request asks whether it is back (S9): no 'online' event is coming then.
   */
  probeMs: number;
  reconcileMs: number;
  maxBulk: number;
  concurrency: number;
  /** S18: while the change stream is healthy the periodic sync is only a safety net this far apart. */
  safetyNetMs: number;
  /** S18: a stream that said nothing (not even a keep-alive) this long is taken for dead or buffered. */
  staleMs: number;
  /** S18: notices within this window after the first are one pull. */
  noticeDelayMs: number;
  /** S18: a returning tab waits this long at most for its stream to open before it pulls anyway. */
  openWaitMs: number;
}
