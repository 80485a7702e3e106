/**
 * Tables and indexes, created idempotently. Statements run inside one transaction holding an
 * advisory lock, so several server processes starting together on one PostgreSQL do not race on
 * CREATE ... IF NOT EXISTS (which is not concurrency-safe by itself).
 */
import type { SqlClient, SqlExecutor } from './sql-client';
import { CHANGE_NOTICE_STATEMENTS } from './change-notices';
import { CHANGE_FEED_STATEMENTS } from './feed-sql';
import { AUDIT_STATEMENTS } from './audit-sql';
import { UNIQUE_KEYS, uniqueIndexStatement, type UniqueKey } from './unique-keys';

/** Any fixed number unique to this purpose: "PASS" in ASCII. */
const MIGRATION_LOCK = 0x50415353;

/** shared/participant-keys.ts `cdcrKey` in SQL: strip all but ASCII letters and digits, then upper case. */
export const CDCR_KEY_SQL = `upper(regexp_replace(data->>'cdcr_number', '[^A-Za-z0-9]', '', 'g'))`;

/** Exported for the bench, which drops and recreates it to measure what it is worth. */
export const GIN_INDEX = `CREATE INDEX IF NOT EXISTS records_data ON records USING gin (data jsonb_path_ops) WITH (fastupdate = off)`;

const STATEMENTS = [
  // One row per record. The whole record (platform fields included) is `data`; id and the two dates
  // are also columns with byte-wise collation ("C") so sorting and range scans use plain indexes
  // and order ISO timestamps identically on PGlite and PostgreSQL whatever the server's locale.
  `CREATE TABLE IF NOT EXISTS records (
     app text NOT NULL,
     entity text NOT NULL,
     id text COLLATE "C" NOT NULL,
     created_date text COLLATE "C" NOT NULL,
     updated_date text COLLATE "C" NOT NULL,
     data jsonb NOT NULL,
     PRIMARY KEY (app, entity, id)
   )`,
  // Incremental pull (sync rule S5): updated_date >= cursor ORDER BY updated_date, id.
  `CREATE INDEX IF NOT EXISTS records_updated ON records (app, entity, updated_date, id)`,
  // The default sort, -created_date.
  `CREATE INDEX IF NOT EXISTS records_created ON records (app, entity, created_date, id)`,
  // Equality filters on any field (participant_id, cohort_id, client_ref, …) compile to containment
  // (data @> '{"f": v}'); jsonb_path_ops is the smaller, faster GIN variant for exactly that.
  // Measured (npm run bench:server, 30,000 enrollments): the enrollments of one participant take
  // 0.8–1.6 ms p50 with it and 55–80 ms without it, on PGlite and PostgreSQL alike.
  // fastupdate off: with it on, new entries queue in a pending list that every search scans until
  // (auto)vacuum merges it; PGlite never autovacuums, and after seeding 40,000 records each probe
  // read ~98 pages instead of ~4. The ALTER and the clean-up fix databases created before.
  GIN_INDEX,
  `ALTER INDEX records_data SET (fastupdate = off)`,
  `SELECT gin_clean_pending_list('records_data'::regclass)`,
  // Exactly-once creates (sync rule S3): at most one record per client_ref, so a create re-sent
  // after a lost answer returns the stored record instead of making a duplicate (postgres-store.ts).
  `CREATE UNIQUE INDEX IF NOT EXISTS records_client_ref ON records (app, entity, (data->>'client_ref')) WHERE data ? 'client_ref'`,
  // Issue #23.7: a participant's CDCR number as a key (shared/participant-keys.ts), so a create
  // that repeats one (the 409 POSSIBLE_DUPLICATE) and the intake's look-up find it however it was
  // typed ("ab-1234" = "AB1234") with one index probe; the GIN index only finds exact values.
  `CREATE INDEX IF NOT EXISTS records_participant_cdcr ON records (app, (${CDCR_KEY_SQL})) WHERE entity = 'Participant' AND data ? 'cdcr_number'`,
  // Issue #23 (docs/design.md S16): one attendance record per (session, participant), kept by the
  // database so parallel creates on one or several server instances can never both insert; the
  // store answers the loser with the stored record (postgres-store.ts `insert`).
  `CREATE UNIQUE INDEX IF NOT EXISTS records_attendance_pair ON records (app, (data->>'session_id'), (data->>'participant_id'))
     WHERE entity = 'Attendance'`,
  // The per-(app, entity) clock behind strictly increasing updated_date (see clock.ts).
  `CREATE TABLE IF NOT EXISTS entity_clocks (
     app text NOT NULL,
     entity text NOT NULL,
     last_ms bigint NOT NULL,
     PRIMARY KEY (app, entity)
   )`,
  `CREATE TABLE IF NOT EXISTS auth_records (
     app text NOT NULL,
     email text NOT NULL,
     data jsonb NOT NULL,
     PRIMARY KEY (app, email)
   )`,
  `CREATE TABLE IF NOT EXISTS app_logs (
     seq bigserial PRIMARY KEY,
     app text NOT NULL,
     id text NOT NULL,
     page text NOT NULL,
     user_id text,
     user_email text,
     created_date text COLLATE "C" NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS app_logs_app ON app_logs (app, seq)`,
  // Issue #14.2b's one raw key per user. No longer read (issue #21 keys are per device, wrapped,
  // in `devices`); kept so databases that have it migrate without a destructive step.
  `CREATE TABLE IF NOT EXISTS device_keys (
     app text NOT NULL,
     user_id text NOT NULL,
     key bytea NOT NULL CHECK (octet_length(key) = 32),
     created_date text COLLATE "C" NOT NULL,
     PRIMARY KEY (app, user_id)
   )`,
  // Sessions (issue #21): every token names one (claim `sid`); logout and an administrator revoke
  // it here, and a token of a revoked session is refused.
  `CREATE TABLE IF NOT EXISTS auth_sessions (
     app text NOT NULL,
     sid text COLLATE "C" NOT NULL,
     user_id text NOT NULL,
     device_id text,
     auth_time bigint NOT NULL,
     created_date text COLLATE "C" NOT NULL,
     revoked_date text COLLATE "C",
     revoked_reason text,
     PRIMARY KEY (app, sid)
   )`,
  `CREATE INDEX IF NOT EXISTS auth_sessions_user ON auth_sessions (app, user_id)`,
  // One-time sign-in codes of the /login page (issue #21): only a keyed hash, 60 s, single use
  // (`used` flips in one UPDATE … WHERE used = false, so two exchanges never both win).
  `CREATE TABLE IF NOT EXISTS sign_in_codes (
     app text NOT NULL,
     code_hash text COLLATE "C" NOT NULL,
     user_id text NOT NULL,
     challenge text,
     auth_time bigint NOT NULL,
     token_version integer NOT NULL,
     expires_date text COLLATE "C" NOT NULL,
     used boolean NOT NULL DEFAULT false,
     PRIMARY KEY (app, code_hash)
   )`,
  // Devices and their server keys (issue #21): one row per device id, registered to the user of
  // its first key release. Keys are stored wrapped (AES-256-GCM, server/auth/device-keys.ts), never
  // raw; `previous_wrapped` is the key the device last received while the current one is new.
  `CREATE TABLE IF NOT EXISTS devices (
     app text NOT NULL,
     device_id text COLLATE "C" NOT NULL,
     user_id text NOT NULL,
     key_wrapped bytea NOT NULL,
     key_released boolean NOT NULL,
     previous_wrapped bytea,
     created_date text COLLATE "C" NOT NULL,
     last_seen_date text COLLATE "C",
     last_release_date text COLLATE "C",
     revoked_date text COLLATE "C",
     revoked_reason text,
     revoke_mode text CHECK (revoke_mode IN ('flush', 'erase')),
     PRIMARY KEY (app, device_id)
   )`,
  `CREATE INDEX IF NOT EXISTS devices_user ON devices (app, user_id)`,
  // Every key release, for the audit and the per-user rate limit.
  `CREATE TABLE IF NOT EXISTS device_key_releases (
     seq bigserial PRIMARY KEY,
     app text NOT NULL,
     device_id text NOT NULL,
     user_id text NOT NULL,
     released_date text COLLATE "C" NOT NULL,
     source text
   )`,
  `CREATE INDEX IF NOT EXISTS device_key_releases_user ON device_key_releases (app, user_id, released_date)`,
];

/** Duplicated values a start-up warning names at most. */
const NAMED_DUPLICATES = 20;

/**
 * Issue #25.2: a unique key's index, unless the records already break it (unique-keys.ts). Then
 * the index is left out (CREATE UNIQUE INDEX would fail and stop the start) and `warn` is told
 * which values are duplicated: cohort codes by value, e-mail addresses by the ids of their User
 * records (no personal data in logs). Checked at every start until the index exists.
 */
async function createUniqueKey(tx: SqlExecutor, k: UniqueKey, warn: (message: string) => void): Promise<void> {
  const [present] = await tx.query<{ ok: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS ok`, [k.index]);
  if (present?.ok) return;
  const duplicated = await tx.query<{ app: string; value: string; ids: string[]; n: number }>(
    `SELECT app, min(btrim(data->>'${k.field}')) AS value, array_agg(id ORDER BY created_date, id) AS ids, count(*)::int AS n
     FROM records WHERE entity = '${k.entity}' AND ${k.keyed}
     GROUP BY app, ${k.key(`data->>'${k.field}'`)} HAVING count(*) > 1 ORDER BY app, value`,
  );
  if (duplicated.length === 0) {
    await tx.query(uniqueIndexStatement(k));
    return;
  }
  const named = duplicated
    .slice(0, NAMED_DUPLICATES)
    .map((d) => `${k.quoteValues ? JSON.stringify(d.value) : `records ${d.ids.join(', ')}`} (app ${d.app}, ×${d.n})`);
  const more = duplicated.length > NAMED_DUPLICATES ? `, and ${duplicated.length - NAMED_DUPLICATES} more` : '';
  warn(
    `${k.describe(duplicated.length)}: ${named.join('; ')}${more}. The database cannot enforce unique ${k.entity} ${k.field} values ` +
      `until they are resolved (index ${k.index} not created); until then the server checks before each write, and two requests ` +
      `racing could still both pass. Give each ${k.entity} its own ${k.field}, then restart: the index is created at the next start.`,
  );
}

export async function migrate(sql: SqlClient, warn: (message: string) => void = console.warn): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    for (const statement of STATEMENTS) await tx.query(statement);
    // Issue #24.1: the change feed's table, kept by triggers on `records` (feed-sql.ts, design S17).
    for (const statement of CHANGE_FEED_STATEMENTS) await tx.query(statement);
    // Issue #24.2: committed changes of `records` notify listening server instances (change-notices.ts).
    for (const statement of CHANGE_NOTICE_STATEMENTS) await tx.query(statement);
    // Issue #26: the audit trail, its chain and the triggers that write it (audit-sql.ts, design S19).
    for (const statement of AUDIT_STATEMENTS) await tx.query(statement);
    // Issue #25.2: cohort codes and user e-mails, unique under an index once the data allows it.
    for (const key of UNIQUE_KEYS) await createUniqueKey(tx, key, warn);
  });
}
