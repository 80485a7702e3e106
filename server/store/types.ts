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

export interface UpdatedRecord {
  record: EntityRecord;
  previous: EntityRecord;
}

export interface Store {
  /** Creates tables if needed; safe to call on every start. */
  migrate(): Promise<void>;
  close(): Promise<void>;

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

  /**
   * The user's device key (issue #14.2b): 32 random bytes, made and stored on the first call, the
   * same bytes on every later call (also when two first calls race). Kept apart from the records,
   * so no entity read, list or log can show it.
   */
  deviceKey(app: string, userId: string): Promise<Uint8Array>;

  appendLog(app: string, entry: AppLogEntry): Promise<void>;
  listLogs(app: string, opts: { limit?: number; skip?: number }): Promise<AppLogEntry[]>;
}
