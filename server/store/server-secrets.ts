/**
 * Secrets every server instance on one PostgreSQL must share (issue #25.3): today the JWT secret,
 * which also keys the one-time secrets' hashes and the device keys' wrapping key. One row per name
 * in `server_secrets`, created once: the first instance's candidate is inserted
 * (`INSERT … ON CONFLICT DO NOTHING`, under an advisory lock with the table's creation), and every
 * instance, that one included, then uses the row. Never updated or deleted by the server.
 *
 * Its own short connection, before the store opens: the secret is needed to build the app, and
 * nothing else reads this table.
 */
import pg from 'pg';

/** Any fixed number unique to this purpose: "SECR" in ASCII. */
const SECRET_LOCK = 0x53454352;

export interface KeptSecret {
  value: string;
  /** Whether this call stored `candidate` (false: another instance, or an earlier start, had). */
  created: boolean;
}

/** The secret named `name` in the database; `candidate` becomes it when there is none yet. */
export async function keepServerSecret(databaseUrl: string, name: string, candidate: () => string): Promise<KeptSecret> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(${SECRET_LOCK})`);
    await client.query(`CREATE TABLE IF NOT EXISTS server_secrets (
      name text PRIMARY KEY,
      value text NOT NULL,
      created_date text NOT NULL
    )`);
    const existing = await client.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
    let kept: KeptSecret;
    if (existing.rows[0]) {
      kept = { value: existing.rows[0].value, created: false };
    } else {
      const value = candidate();
      await client.query('INSERT INTO server_secrets (name, value, created_date) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [name, value, new Date().toISOString()]);
      kept = { value, created: true };
    }
    await client.query('COMMIT');
    return kept;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}
