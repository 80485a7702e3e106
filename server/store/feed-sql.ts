/**
 * Issue #24.1 (docs/design.md S17): the change feed's storage. `record_changes` holds one row per
 * record with its latest change: a new `seq` and the writing transaction's id (`txid`, xid8) on
 * every insert and update, `deleted` (a tombstone) on delete. Statement-level triggers on `records`
 * keep it, in the writing transaction, so no write path can forget it.
 *
 * Commit order, not timestamps: rows are read in (txid, seq) order, and only rows whose txid is
 * below the reading snapshot's xmin — the oldest transaction still running. Every transaction below
 * xmin has ended, so a slow transaction that began first and commits after a fast one is never
 * skipped: until it ends, its txid holds xmin at or below it, and the reader stops before it.
 * A position is (txid, seq); "after (t, s)" means (txid, seq) > (t, s) in row order.
 *
 * Tombstones are kept `retention` long (route: 30 days); pruning one raises the feed's `horizon`
 * (the highest txid pruned), and a cursor at or below it can no longer be served. Each app's feed
 * has a random `epoch`, so a cursor from another database (or app) is refused, not misread.
 */
import type { SqlClient } from './sql-client';
import type { EntityRecord } from './types';

/** A feed position: xid8 and bigint as decimal strings (both may exceed 2^53). */
export interface FeedPosition {
  txid: string;
  seq: string;
}

export interface FeedChange {
  entity: string;
  id: string;
  /** The record as it stands now; null for a tombstone. */
  record: EntityRecord | null;
}

export interface FeedRead {
  changes: FeedChange[];
  /** A full page was read and more changes wait after `next`. */
  more: boolean;
  /** Where the next read starts: the last change read, or (xmin, 0) once every finished change was read. */
  next: FeedPosition;
  epoch: string;
  /** Positions with a txid at or below this were pruned of tombstones ('0': none ever). */
  horizon: string;
  /** The reading snapshot's xmin: no position beyond (xmin, 0) was ever handed out. */
  xmin: string;
}

const BACKFILLED_TRIGGER = 'records_feed_insert';

const upsert = (source: string, deleted: boolean) => `CREATE OR REPLACE FUNCTION passage_feed_${deleted ? 'delete' : 'write'}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_changes (app, entity, id, deleted)
    SELECT app, entity, id, ${deleted} FROM ${source} ORDER BY app, entity, id
  ON CONFLICT (app, entity, id) DO UPDATE
    SET seq = nextval('record_changes_seq'), txid = pg_current_xact_id(), deleted = ${deleted}, changed_date = now();
  RETURN NULL;
END $$`;

/** A trigger with a transition table serves one event, so there are three (PostgreSQL 14+: OR REPLACE). */
const trigger = (event: 'INSERT' | 'UPDATE' | 'DELETE') =>
  `CREATE OR REPLACE TRIGGER records_feed_${event.toLowerCase()} AFTER ${event} ON records
     REFERENCING ${event === 'DELETE' ? 'OLD TABLE AS feed_gone' : 'NEW TABLE AS feed_written'}
     FOR EACH STATEMENT EXECUTE FUNCTION passage_feed_${event === 'DELETE' ? 'delete' : 'write'}()`;

/** Run by the migration (schema.ts) after `records` exists, under its advisory lock, in its transaction. */
export const CHANGE_FEED_STATEMENTS = [
  `CREATE SEQUENCE IF NOT EXISTS record_changes_seq`,
  `CREATE TABLE IF NOT EXISTS record_changes (
     app text NOT NULL,
     entity text NOT NULL,
     id text COLLATE "C" NOT NULL,
     seq bigint NOT NULL DEFAULT nextval('record_changes_seq'),
     txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
     deleted boolean NOT NULL DEFAULT false,
     changed_date timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (app, entity, id)
   )`,
  // The feed reads (app, txid, seq) > cursor in this order.
  `CREATE INDEX IF NOT EXISTS record_changes_order ON record_changes (app, txid, seq)`,
  // Pruning finds old tombstones without reading every record's row.
  `CREATE INDEX IF NOT EXISTS record_changes_tombstones ON record_changes (app, changed_date) WHERE deleted`,
  `CREATE TABLE IF NOT EXISTS change_feeds (
     app text PRIMARY KEY,
     epoch text NOT NULL,
     horizon xid8 NOT NULL DEFAULT '0'
   )`,
  upsert('feed_written', false),
  upsert('feed_gone', true),
  // A database from before the feed: every record gets its row once, in this (the migration's)
  // transaction, before the triggers exist, so a tablet upgrading its server keeps working (its
  // first feed cursor is taken after this, so these rows are not sent again).
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '${BACKFILLED_TRIGGER}' AND tgrelid = 'records'::regclass) THEN
       INSERT INTO record_changes (app, entity, id) SELECT app, entity, id FROM records ORDER BY app, entity, id ON CONFLICT DO NOTHING;
     END IF;
   END $$`,
  trigger('INSERT'),
  trigger('UPDATE'),
  trigger('DELETE'),
];

type ReadRow = {
  xmin: string;
  epoch: string;
  horizon: string;
  entity: string | null;
  id: string | null;
  deleted: boolean | null;
  txid: string | null;
  seq: string | null;
  data: string | null;
};

export function feedSql(sql: SqlClient, { mapErrors }: { mapErrors: <T>(work: () => Promise<T>) => Promise<T> }) {
  /** The app's feed row, made on first use (an app id is not known when the migration runs). */
  async function ensureFeed(app: string): Promise<void> {
    const rows = await sql.query('SELECT 1 FROM change_feeds WHERE app = $1', [app]);
    if (rows.length === 0) await sql.query('INSERT INTO change_feeds (app, epoch) VALUES ($1, gen_random_uuid()::text) ON CONFLICT DO NOTHING', [app]);
  }

  return {
    /**
     * Up to `limit` changes after `after` (null: none, only the current position), in commit
     * order, with each record's current row. One statement, so the rows, xmin, epoch and horizon
     * come from one snapshot (a prune committing meanwhile is either wholly seen or not at all).
     */
    readChanges: (app: string, after: { txid: string; seq: string } | null, limit: number): Promise<FeedRead> =>
      mapErrors(async () => {
        await ensureFeed(app);
        const take = after === null ? 0 : Math.max(1, Math.min(limit, 10_000));
        const rows = await sql.query<ReadRow>(
          `SELECT s.xmin::text AS xmin, s.epoch, s.horizon::text AS horizon, c.entity, c.id, c.deleted,
                  c.txid::text AS txid, c.seq::text AS seq, r.data::text AS data
           FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin, f.epoch, f.horizon FROM change_feeds f WHERE f.app = $1) s
           LEFT JOIN LATERAL (
             SELECT entity, id, deleted, txid, seq FROM record_changes
             WHERE app = $1 AND (txid, seq) > ($2::xid8, $3::bigint) AND txid < s.xmin
             ORDER BY txid, seq LIMIT $4
           ) c ON true
           LEFT JOIN records r ON r.app = $1 AND r.entity = c.entity AND r.id = c.id
           ORDER BY c.txid, c.seq`,
          [app, after?.txid ?? '0', after?.seq ?? '0', after === null ? 0 : take + 1],
        );
        const head = rows[0];
        const found = rows.filter((r) => r.id !== null);
        const more = found.length > take;
        const page = found.slice(0, take);
        const last = page.at(-1);
        return {
          changes: page.map((r) => ({
            entity: r.entity!,
            id: r.id!,
            // A row never lacks its record unless deleted (both are written in one transaction).
            record: r.deleted || r.data === null ? null : (JSON.parse(r.data) as EntityRecord),
          })),
          more,
          next: more && last ? { txid: last.txid!, seq: last.seq! } : { txid: head.xmin, seq: '0' },
          epoch: head.epoch,
          horizon: head.horizon,
          xmin: head.xmin,
        };
      }),

    /**
     * Forgets tombstones older than `olderThanMs` by the database's clock, raising the horizon to
     * the newest txid forgotten; how many. Rows of live records are never pruned (one per record).
     */
    pruneChanges: (app: string, olderThanMs: number): Promise<number> =>
      mapErrors(async () => {
        await ensureFeed(app);
        return sql.transaction(async (tx) => {
          const gone = await tx.query<{ n: number; top: string | null }>(
            `WITH gone AS (
               DELETE FROM record_changes WHERE app = $1 AND deleted AND changed_date <= now() - make_interval(secs => $2::double precision / 1000)
               RETURNING txid
             ) SELECT count(*)::int AS n, max(txid)::text AS top FROM gone`,
            [app, olderThanMs],
          );
          const { n, top } = gone[0];
          if (top !== null) await tx.query('UPDATE change_feeds SET horizon = greatest(horizon, $2::xid8) WHERE app = $1', [app, top]);
          return Number(n);
        });
      }),
  };
}
