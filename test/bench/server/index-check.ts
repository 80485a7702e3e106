/**
 * Does the GIN index on `data` earn its keep? Times the same equality filter on the Store with the
 * index and without it, and shows the plan PostgreSQL picks.
 */
import { GIN_INDEX } from '../../../server/store/schema';
import type { SqlClient } from '../../../server/store/sql-client';
import type { Store } from '../../../server/store/types';
import { type Measurement, measure } from './measure';
import type { Seeded } from './seed';

export async function ginComparison(store: Store, sql: SqlClient, app: string, data: Seeded): Promise<{ rows: Measurement[]; plan: string }> {
  const run = (label: string) =>
    measure(label, 200, 1, async (i) => {
      const p = data.participants[(i * 7919) % data.participants.length];
      await store.list(app, 'Enrollment', { q: { participant_id: p.id } });
    });
  const doc = (v: unknown) => JSON.stringify({ participant_id: v });
  const probe = data.participants[0].id;
  const plans = await sql.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT data FROM records WHERE app = $1 AND entity = 'Enrollment' AND data @> ANY($2::jsonb[])`,
    [app, [doc(probe), doc([probe])]],
  );
  const plan = plans.map((r) => r['QUERY PLAN']).join('\n');
  const withIndex = await run('store filter, GIN index');
  await sql.query('DROP INDEX records_data');
  try {
    const without = await run('store filter, no GIN index');
    return { rows: [withIndex, without], plan };
  } finally {
    await sql.query(GIN_INDEX);
  }
}
