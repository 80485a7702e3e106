/**
 * Gives the seeded records the timestamps of a data set built up over six months. Bulk seeding
 * stamps each row 1 ms after the previous one (server/store/clock.ts), so without this the last
 * 2,000 rows of every entity would sit inside the sync engine's 2 s pull overlap and every
 * "incremental" pull would re-read them (measured while building the bench: 3.6 MB for 10
 * changes) — a property of the seed, not of a server that coaches filled in over months. That
 * bulk-import case is reported separately in bench/README.md.
 */
import { GIN_INDEX } from '../../../server/store/schema';
import { openPglite } from '../../../server/store/pglite-client';

const DAY = 86_400_000;

export async function backdate(dataDir: string, app: string, now = Date.now()): Promise<void> {
  const from = now - 180 * DAY;
  const span = 180 * DAY - 3_600_000; // history ends an hour ago
  // One UPDATE of every record, and the index rebuilt: far beyond a request's read timeout (3 s).
  const sql = await openPglite(dataDir, 600_000, 600_000);
  try {
    // The GIN index would be updated for every row (~20 entries each); rebuilding it once is faster.
    await sql.query('DROP INDEX IF EXISTS records_data');
    await sql.query(
      `WITH ranked AS (
         SELECT entity, id,
                row_number() OVER (PARTITION BY entity ORDER BY updated_date, id) AS n,
                count(*) OVER (PARTITION BY entity) AS total
           FROM records WHERE app = $1 AND entity <> 'User'),
       stamped AS (
         SELECT entity, id,
                to_char(to_timestamp(($2::bigint + n * $3::bigint / total) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso
           FROM ranked)
       UPDATE records r
          SET created_date = s.iso, updated_date = s.iso,
              data = r.data || jsonb_build_object('created_date', s.iso, 'updated_date', s.iso)
         FROM stamped s
        WHERE r.app = $1 AND r.entity = s.entity AND r.id = s.id`,
      [app, from, span],
    );
    await sql.query(GIN_INDEX);
    await sql.query('UPDATE entity_clocks SET last_ms = $2 WHERE app = $1 AND entity <> $3', [app, from + span, 'User']);
    await sql.query('VACUUM ANALYZE records');
  } finally {
    await sql.close();
  }
}
