/**
 * The Store: everything the server keeps. One PostgreSQL implementation (embedded PGlite or a real
 * server); the same contract suite runs against both. Records are schemaless JSON plus the
 * platform's own fields (platform-contract.md section 6).
 */

export type Filter = Record<string, unknown>;

export interface EntityRecord {
  id: string;
  created_date: string;
  updated_date: string;
  created_by?: string | null;
  created_by_id?: string | null;
  [field: string]: unknown;
}

export interface ListQuery {
  /** The filter language of platform-contract.md 2.1; invalid input throws StoreError 'invalid' (HTTP 400). */
  q?: Filter;
  /** `field`, `-field` or `+field`; default `-created_date`; ties are always broken by id. */
  sort?: string;
  /** Default 5000; at most 5001 (a full page plus one row to tell whether more follow); larger is clamped. */
  limit?: number;
  skip?: number;
  /** Project to these fields (id is always included). */
  fields?: string[];
}

export interface RecordMeta {
  /** Email of the creating user, or null. */
  by: string | null;
  /** Id of the creating user, or null. */
  byId: string | null;
}

/** Per-user sign-in state (password hash, lockout, one-time codes); never returned by the API. */
export type AuthRecord = Record<string, unknown> & { user_id: string; email: string };

export interface AppLogEntry {
  id?: string;
  page: string;
  user_id: string | null;
  user_email: string | null;
  created_date?: string;
}

/** A sign-in session (issue #21): tokens name it by `sid`. */
export interface AuthSession {
  sid: string;
  user_id: string;
  device_id: string | null;
  /** Epoch seconds of the credential check that started it. */
  auth_time: number;
  created_date: string;
  revoked_date: string | null;
  revoked_reason: string | null;
}

/** A one-time sign-in code of the /login page, as stored (only its keyed hash). */
export interface SignInCode {
  code_hash: string;
  user_id: string;
  /** base64url(SHA-256(code_verifier)), or null for a code not bound to a verifier. */
  challenge: string | null;
  auth_time: number;
  token_version: number;
  expires_date: string;
}

export type RevokeMode = 'flush' | 'erase';

/** A device and its server key (issue #21); keys are wrapped (server/auth/device-keys.ts). */
export interface DeviceRecord {
  device_id: string;
  user_id: string;
  key_wrapped: Uint8Array;
  /** Whether the current key was handed to the device (false after a password-change rotation). */
  key_released: boolean;
  previous_wrapped: Uint8Array | null;
  created_date: string;
  last_seen_date: string | null;
  last_release_date: string | null;
  revoked_date: string | null;
  revoked_reason: string | null;
  revoke_mode: RevokeMode | null;
}

/** The device's keys after a release or a rotation. */
export interface DeviceKeyChange {
  key_wrapped: Uint8Array;
  key_released: boolean;
  previous_wrapped: Uint8Array | null;
}

/**
 * Issue #24.2: records of an app changed (a committed insert, update or delete), by entity. `app`
 * null with no entities: notices may have been missed (the listening connection was lost), so any
 * app's anything may have changed.
 */
/** Store.tokenStanding: null where the row does not exist (or the token names none). */
export interface TokenStanding {
  device: Pick<DeviceRecord, 'user_id' | 'revoked_date' | 'revoke_mode'> | null;
  session: Pick<AuthSession, 'user_id' | 'revoked_date'> | null;
  user: EntityRecord | null;
  auth: AuthRecord | null;
}

export interface ChangeNotice {
  app: string | null;
  entities: string[];
}

import type { FeedPosition, FeedRead } from './feed-sql';
export type { FeedChange, FeedPosition, FeedRead } from './feed-sql';

/** Issue #26: an event of the audit trail before the database numbers and chains it. */
export interface AuditInput {
  action: string;
  /** Default 'success'. */
  outcome?: 'success' | 'failure';
  actor_id?: string | null;
  actor_email?: string | null;
  device_id?: string | null;
  address?: string | null;
  client_time?: string | null;
  entity?: string | null;
  record_id?: string | null;
  changes?: Record<string, unknown> | null;
  reason?: string | null;
}

/** Issue #26: `audit:verify`'s finding for one app's chain. */
export interface AuditChainReport {
  app: string;
  /** Events checked and found intact (up to the first broken link). */
  events: number;
  /** The hash of the last intact event, hex (an operator may note it to compare later). */
  head: string;
  broken: { seq: number; id: string | null; problem: string; expected: string; found: string } | null;
}

export interface UpdatedRecord {
  record: EntityRecord;
  previous: EntityRecord;
}

export interface Store {
  /** Creates tables if needed; safe to call on every start. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs `work` holding the lock `name`, across every server instance on one database (issue
   * #25.2: two instances starting on an empty database seed the demo once). Waits without a bound.
   */
  underLock<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Readiness (GET /readyz): resolves when the database answers and the store's tables exist. */
  ping(): Promise<void>;
  /**
   * Issue #24.2: `listener` hears every committed change of records (PostgreSQL LISTEN/NOTIFY, so
   * changes through other server instances on the same database too) until the returned function
   * is called. A rolled-back write is never heard.
   */
  onChanges(listener: (notice: ChangeNotice) => void): Promise<() => Promise<void>>;

  list(app: string, entity: string, query: ListQuery): Promise<EntityRecord[]>;
  count(app: string, entity: string, q?: Filter): Promise<number>;
  get(app: string, entity: string, id: string): Promise<EntityRecord | null>;
  /** Assigns id, created_date, updated_date (strictly increasing per app+entity), created_by(_id). */
  create(app: string, entity: string, data: Record<string, unknown>, meta: RecordMeta): Promise<EntityRecord>;
  /** All or nothing, in one transaction. */
  createMany(app: string, entity: string, data: Record<string, unknown>[], meta: RecordMeta): Promise<EntityRecord[]>;
  /** Merges `patch` into the record and bumps updated_date; null when there is no such record. */
  update(app: string, entity: string, id: string, patch: Record<string, unknown>): Promise<EntityRecord | null>;
  /** All or nothing; a missing id throws StoreError('not_found') and changes nothing. */
  updateMany(app: string, entity: string, patches: Array<{ id: string } & Record<string, unknown>>): Promise<EntityRecord[]>;
  /**
   * As update / updateMany, each with the record as it was just before this write (read under the
   * same row lock), so an answer can tell the client what it overwrote (issue #9.10).
   */
  updateWithPrevious(app: string, entity: string, id: string, patch: Record<string, unknown>): Promise<UpdatedRecord | null>;
  updateManyWithPrevious(app: string, entity: string, patches: Array<{ id: string } & Record<string, unknown>>): Promise<UpdatedRecord[]>;
  delete(app: string, entity: string, id: string): Promise<boolean>;
  /**
   * Issue #24.1 (design S17): up to `limit` changes of records after `after` in commit order, each
   * with the record's current row (null: deleted); `after` null reads no change, only the current
   * position. See feed-sql.ts for what a position means and why it never skips a late commit.
   */
  readChanges(app: string, after: FeedPosition | null, limit: number): Promise<FeedRead>;
  /** Forgets tombstones older than `olderThanMs` (database clock); cursors before them expire. */
  pruneChanges(app: string, olderThanMs: number): Promise<number>;
  /**
   * Issue #23.7: the participants whose CDCR number has one of these keys (shared/participant-keys.ts:
   * letters and digits only, upper case), at most `limit`, through an expression index.
   */
  participantsByCdcrKey(app: string, keys: readonly string[], limit: number): Promise<EntityRecord[]>;

  getAuth(app: string, email: string): Promise<AuthRecord | null>;
  putAuth(app: string, email: string, record: AuthRecord): Promise<void>;
  /**
   * Read-modify-write of one auth record in one transaction, under its row lock: concurrent calls on
   * one e-mail run one after another, each seeing the previous one's result (no lost updates).
   * `change` must be synchronous; it returns the new record, or undefined to leave it as is, or
   * throws (nothing is written, the error propagates). Resolves to the record as it now stands, or
   * null when there is no record (then `change` is not called).
   */
  updateAuth(app: string, email: string, change: (current: AuthRecord) => AuthRecord | undefined): Promise<AuthRecord | null>;

  createSession(app: string, session: Pick<AuthSession, 'sid' | 'user_id' | 'device_id' | 'auth_time'>): Promise<void>;
  getSession(app: string, sid: string): Promise<AuthSession | null>;
  /** Revokes those of the sessions not revoked yet (of `userId` only, when given); how many. */
  revokeSessions(app: string, sids: string[], reason: string, userId?: string): Promise<number>;
  revokeUserSessions(app: string, userId: string, reason: string): Promise<number>;

  /** Stores a code (by hash) and forgets codes that expired. */
  putSignInCode(app: string, code: SignInCode): Promise<void>;
  /**
   * Marks the code used and returns it, in one statement: of parallel calls for one code at most
   * one gets it. null when unknown or already used (expiry is the caller's to check).
   */
  takeSignInCode(app: string, codeHash: string): Promise<SignInCode | null>;

  /**
   * A key release for a device, in one transaction serialised per user and per device: `change`
   * (synchronous; it may throw, then nothing is written) sees the device (null before its first
   * release) and how many releases the user, and this device, had since `since`, and returns the new keys; the device
   * row is registered to `userId` or updated, and the release recorded with its source address.
   */
  releaseDeviceKey(
    app: string,
    release: { deviceId: string; userId: string; source: string; since: string },
    change: (device: DeviceRecord | null, recentReleases: { user: number; device: number }) => DeviceKeyChange,
  ): Promise<DeviceRecord>;
  /** Applies `change` to every device of the user (password change); how many. */
  rotateUserDeviceKeys(app: string, userId: string, change: (device: DeviceRecord) => DeviceKeyChange): Promise<number>;
  getDevice(app: string, deviceId: string): Promise<DeviceRecord | null>;
  touchDevice(app: string, deviceId: string): Promise<void>;
  /** Newest first; one user's when given. */
  listDevices(app: string, userId?: string): Promise<DeviceRecord[]>;
  /**
   * Revokes one device (by id) or every device of a user. An 'erase' is never lowered to 'flush';
   * the first revocation date stays. How many devices.
   */
  revokeDevices(app: string, target: { deviceId: string } | { userId: string }, mode: RevokeMode, reason: string): Promise<number>;
  /**
   * Issue #24.2: what an open change stream's token still rests on, read in one statement (the
   * stream re-checks it every keep-alive tick): its device (when named), its session (when named),
   * its user record and the user's auth record (token_version; found by the user's email).
   */
  tokenStanding(app: string, token: { deviceId: string | null; sessionId: string | null; userId: string }): Promise<TokenStanding>;

  /**
   * Issue #26 (audit-sql.ts): events other than record writes (which the database records itself),
   * appended to the app's chain in one transaction.
   */
  appendAudit(app: string, events: AuditInput[]): Promise<void>;
  /** The audit trail through the list language (AuditEvent records; hashes in hex). */
  listAudit(app: string, query: ListQuery): Promise<EntityRecord[]>;
  countAudit(app: string, q?: Filter): Promise<number>;
  getAudit(app: string, id: string): Promise<EntityRecord | null>;
  /** Walks every app's chain (npm run audit:verify). */
  verifyAudit(): Promise<AuditChainReport[]>;

  appendLog(app: string, entry: AppLogEntry): Promise<void>;
  listLogs(app: string, opts: { limit?: number; skip?: number }): Promise<AppLogEntry[]>;
}
