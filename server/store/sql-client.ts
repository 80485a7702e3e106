/**
 * The smallest SQL surface the store needs, and what its two adapters share: embedded PGlite
 * (pglite-client.ts: a data directory, or `memory://`) and a real PostgreSQL server through a `pg`
 * Pool (pg-client.ts). Both speak the same SQL dialect, so the store above is written once.
 */

export interface SqlExecutor {
  /** Runs one parameterised statement ($1, $2, …) and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Told each notice's payload; `null` when notices may have been missed (the listening connection was lost). */
export type NoticeListener = (payload: string | null) => void;

export interface SqlClient extends SqlExecutor {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * LISTEN on `channel` (issue #24.2): `listener` hears every NOTIFY on it after commit, from this
   * process or any other on the same database, until the returned function is called.
   */
  listen(channel: string, listener: NoticeListener): Promise<() => Promise<void>>;
  /**
   * Runs `work` holding the lock `name` (issue #25.2: the demo seed): across every server process
   * on one PostgreSQL (a session advisory lock on a connection of its own, waited for without a
   * timeout); on PGlite within this process, the only one its data directory admits.
   */
  withLock<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

/**
 * Issue #25.4: statements outside a transaction (reads, and single-row writes by key) get this
 * much, unless createStore is told otherwise; transactions (creates, updates, bulk writes,
 * migrations) get the statement timeout. A read past it is answered 503 QUERY_TIMEOUT.
 */
export const DEFAULT_READ_TIMEOUT_MS = 3_000;

/** Advisory-lock namespace of withLock ("LOCK" in ASCII); the name's hash is the second key. */
export const NAMED_LOCKS = 0x4c4f434b;

/** 30 s per statement on both stores, unless createStore is told otherwise (tests use less). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/** What a statement that ran out of time throws, on PGlite as on PostgreSQL (SQLSTATE 57014). */
export class StatementTimeout extends Error {
  readonly code = '57014';
  constructor(ms: number) {
    super(`canceling statement due to statement timeout (${ms} ms)`);
    this.name = 'StatementTimeout';
  }
}

/** How long close() waits for statements still running before it abandons them. */
export const CLOSE_GRACE_MS = 5_000;

/** Channel names are ours (a fixed identifier), never input: checked so LISTEN can name them unquoted. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkChannel(channel: string): string {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  return channel;
}

/** Listeners by channel, shared by both adapters. */
export class Channels {
  private readonly byName = new Map<string, Set<NoticeListener>>();
  get names(): string[] {
    return [...this.byName.keys()];
  }
  /** Whether this is the channel's first listener (the caller then LISTENs). */
  add(channel: string, listener: NoticeListener): boolean {
    let set = this.byName.get(channel);
    const first = !set;
    if (!set) this.byName.set(channel, (set = new Set()));
    set.add(listener);
    return first;
  }
  /** Whether the channel has no listener left (the caller then UNLISTENs). */
  remove(channel: string, listener: NoticeListener): boolean {
    const set = this.byName.get(channel);
    set?.delete(listener);
    if (set && set.size === 0) this.byName.delete(channel);
    return !this.byName.has(channel);
  }
  tell(channel: string, payload: string | null): void {
    for (const listener of this.byName.get(channel) ?? []) {
      try {
        listener(payload);
      } catch {
        // One listener's bug must not keep the notice from the others.
      }
    }
  }
  tellAll(payload: string | null): void {
    for (const channel of this.names) this.tell(channel, payload);
  }
}
