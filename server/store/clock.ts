/**
 * Strictly increasing timestamps per (app, entity), also across several server processes sharing
 * one PostgreSQL: each write reserves milliseconds from a clock row in its own transaction,
 * `GREATEST(now, last + 1)`. The row stays locked until commit, so a later timestamp can only be
 * committed after every earlier one: commit order equals timestamp order, and a client pulling
 * `updated_date >= cursor` never skips a write that commits late.
 * A batch of n records reserves n consecutive milliseconds, so bulk writes run the clock ahead of
 * real time by up to n ms (500 per bulk call); it falls back to real time as soon as time catches up.
 */
import type { SqlExecutor } from './sql-client';

/** Returns the first of `count` reserved consecutive milliseconds. */
export async function reserveTimestamps(
  tx: SqlExecutor,
  app: string,
  entity: string,
  nowMs: number,
  count: number,
): Promise<number> {
  const rows = await tx.query<{ last_ms: string | number }>(
    `INSERT INTO entity_clocks AS c (app, entity, last_ms) VALUES ($1, $2, $3::bigint + $4::bigint - 1)
     ON CONFLICT (app, entity) DO UPDATE SET last_ms = GREATEST($3::bigint, c.last_ms + 1) + $4::bigint - 1
     RETURNING last_ms`,
    [app, entity, Math.floor(nowMs), count],
  );
  return Number(rows[0].last_ms) - count + 1;
}

export const isoAt = (ms: number) => new Date(ms).toISOString();
