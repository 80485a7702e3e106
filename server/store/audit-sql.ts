/**
 * Issue #26 (docs/design.md S19): the audit trail's storage. `audit_events` is append-only and
 * hash-chained per app:
 * - Every event's `hash` = sha256(prev_hash || utf8(app || '\n' || data::text)), where `data` is
 *   the whole event as the API returns it (seq, id and created_date included) except the two
 *   hashes, and `prev_hash` is the previous event's hash (32 zero bytes for an app's first).
 *   jsonb's text form is canonical (keys sorted, fixed spacing), so the same event always hashes
 *   the same. `seq` counts 1, 2, 3… per app with no gaps, and `id` is seq in 24 hex digits, so id
 *   order, seq order and chain order are one order; `created_date` never goes backwards along it.
 * - One function, `passage_audit_append`, writes events: it takes the app's chain lock (an
 *   advisory transaction lock), reads the head (`audit_heads`: the last seq and hash), chains the
 *   events and inserts them. The lock is held until the writing transaction ends, so concurrent
 *   writers chain one after another (cost: one app's audited writes commit one at a time on
 *   PostgreSQL; see server/README.md). The store takes the same lock first thing in each of its
 *   write transactions, before any row lock, so the lock order is always chain → clock → rows.
 * - Statement-level AFTER triggers on `records` write an event per inserted, updated or deleted
 *   row, in the writing statement's transaction: a rolled-back write leaves no event, and no write
 *   path — also one added later — can forget to record. Who wrote it comes from the transaction's
 *   `passage.audit` setting (the store sets it from the request's audit context); without one the
 *   actor is "system" (seeding, migrations, SQL run by hand).
 * - Triggers refuse UPDATE, DELETE and TRUNCATE of `audit_events` (and DELETE and TRUNCATE of
 *   `audit_heads`). A superuser can disable them; the chain then shows the edit (audit-verify.ts).
 */
import type { SqlExecutor } from './sql-client';
import type { AuditInput } from './types';

/** Advisory-lock class for the chain lock (key: hashtext(app)): "AUDT" in ASCII. */
export const AUDIT_LOCK_CLASS = 0x41554454;
/** The first event's prev_hash. */
export const GENESIS_HASH = '00'.repeat(32);
/** What the hash covers, in SQL over a row of audit_events (`app`, `data`). */
export const HASHED_TEXT_SQL = `convert_to(app || E'\\n' || data::text, 'UTF8')`;

/** Fields the Audit page filters by; each has an index (app, field, created_date, id). */
export const AUDIT_INDEXED_FIELDS = ['actor_id', 'actor_email', 'entity', 'record_id', 'action'] as const;

/** Record fields an event's `changes` leaves out: the platform's own (they are the event's fields). */
const PLATFORM_FIELDS = `ARRAY['id', 'created_date', 'updated_date', 'created_by', 'created_by_id']`;

const ISO_NOW = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const APPEND = `CREATE OR REPLACE FUNCTION passage_audit_append(p_app text, p_events jsonb, p_at text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  head_seq bigint;
  head_hash bytea;
  head_date text;
  at text;
  ev jsonb;
  h bytea;
  seqs bigint[] := '{}';
  ids text[] := '{}';
  datas jsonb[] := '{}';
  prevs bytea[] := '{}';
  hashes bytea[] := '{}';
BEGIN
  IF p_events IS NULL OR jsonb_array_length(p_events) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(${AUDIT_LOCK_CLASS}, hashtext(p_app));
  SELECT seq, hash, created_date INTO head_seq, head_hash, head_date FROM audit_heads WHERE app = p_app;
  IF NOT FOUND THEN
    head_seq := 0;
    head_hash := decode('${GENESIS_HASH}', 'hex');
    head_date := '';
  END IF;
  -- Never earlier than the event before it: created_date order is chain order.
  at := greatest(COALESCE(p_at, ${ISO_NOW}) COLLATE "C", head_date COLLATE "C");
  FOR ev IN SELECT value FROM jsonb_array_elements(p_events) LOOP
    head_seq := head_seq + 1;
    ev := ev || jsonb_build_object('id', lpad(to_hex(head_seq), 24, '0'), 'seq', head_seq, 'created_date', at, 'updated_date', at);
    h := sha256(head_hash || convert_to(p_app || E'\\n' || ev::text, 'UTF8'));
    seqs := seqs || head_seq;
    ids := ids || (ev->>'id');
    datas := datas || ev;
    prevs := prevs || head_hash;
    hashes := hashes || h;
    head_hash := h;
  END LOOP;
  INSERT INTO audit_events (app, seq, id, created_date, data, prev_hash, hash)
    SELECT p_app, s, i, at, d, p, x FROM unnest(seqs, ids, datas, prevs, hashes) AS u(s, i, d, p, x);
  INSERT INTO audit_heads (app, seq, hash, created_date) VALUES (p_app, head_seq, head_hash, at)
    ON CONFLICT (app) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash, created_date = EXCLUDED.created_date;
END $$`;

/**
 * The transaction's audit context (the store's `passage.audit` setting), or the system's when none
 * was set. Never NULL: no setting a session can send turns auditing off (the bench's comparison
 * disables the triggers in a database of its own instead).
 */
const CONTEXT = `CREATE OR REPLACE FUNCTION passage_audit_context() RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE raw text := current_setting('passage.audit', true);
BEGIN
  IF raw IS NULL OR raw = '' THEN
    RETURN jsonb_build_object('actor_id', NULL, 'actor_email', 'system', 'device_id', NULL, 'address', NULL, 'reason', NULL);
  END IF;
  RETURN raw::jsonb;
END $$`;

/** The fields every record event shares. */
const BASE = `CREATE OR REPLACE FUNCTION passage_audit_base(c jsonb, p_entity text, p_id text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'actor_id', c->'actor_id', 'actor_email', c->'actor_email', 'device_id', c->'device_id', 'address', c->'address',
    'client_time', COALESCE(c->'times'->p_id, 'null'::jsonb), 'entity', p_entity, 'record_id', p_id,
    'outcome', 'success', 'reason', COALESCE(c->'reason', 'null'::jsonb))
$$`;

/** A created (p_new) or deleted (not p_new) record's fields as {field: {old, new}}. */
const FIELDS = `CREATE OR REPLACE FUNCTION passage_audit_fields(p_data jsonb, p_new boolean) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(jsonb_object_agg(key, CASE WHEN p_new THEN jsonb_build_object('old', NULL, 'new', value)
                                                          ELSE jsonb_build_object('old', value, 'new', NULL) END), '{}'::jsonb)
    FROM jsonb_each(p_data) WHERE key <> ALL (${PLATFORM_FIELDS})
$$`;

/** The fields an update changed, {field: {old, new}} (updated_date left out). */
const DIFF = `CREATE OR REPLACE FUNCTION passage_audit_diff(p_old jsonb, p_new jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(jsonb_object_agg(k, jsonb_build_object('old', p_old->k, 'new', p_new->k)), '{}'::jsonb)
    FROM (SELECT jsonb_object_keys(p_old) UNION SELECT jsonb_object_keys(p_new)) AS keys(k)
   WHERE k <> 'updated_date' AND (p_old->k) IS DISTINCT FROM (p_new->k)
$$`;

/**
 * What an update is called: a conflict resolution (the client said so), a User's rejection (role
 * guest), approval (approved set true) or role change, an Enrollment's unenrolment (status set to
 * withdrawn) or re-enrolment (from withdrawn), else a plain update.
 */
const UPDATE_ACTION = `CREATE OR REPLACE FUNCTION passage_audit_update_action(c jsonb, p_entity text, o jsonb, n jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN c->>'resolves_conflict' = 'true' THEN 'resolve_conflict'
    WHEN p_entity = 'User' AND n->>'role' = 'guest' AND (o->>'role') IS DISTINCT FROM 'guest' THEN 'reject'
    WHEN p_entity = 'User' AND n->'approved' = 'true'::jsonb AND (o->'approved') IS DISTINCT FROM 'true'::jsonb THEN 'approve'
    WHEN p_entity = 'User' AND (o->'role') IS DISTINCT FROM (n->'role') THEN 'role_change'
    WHEN p_entity = 'Enrollment' AND n->>'enrollment_status' = 'withdrawn' AND (o->>'enrollment_status') IS DISTINCT FROM 'withdrawn' THEN 'unenroll'
    WHEN p_entity = 'Enrollment' AND o->>'enrollment_status' = 'withdrawn' AND (n->>'enrollment_status') IS DISTINCT FROM 'withdrawn' THEN 'enroll'
    ELSE 'update' END
$$`;

const ON_INSERT = `CREATE OR REPLACE FUNCTION passage_audit_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE c jsonb := passage_audit_context(); r record;
BEGIN
  IF c IS NULL THEN RETURN NULL; END IF;
  FOR r IN SELECT app, jsonb_agg(passage_audit_base(c, entity, id) || jsonb_build_object(
             'action', CASE WHEN entity = 'Enrollment' THEN 'enroll' ELSE 'create' END,
             'changes', passage_audit_fields(data, true)) ORDER BY updated_date, id) AS events
           FROM audit_new GROUP BY app LOOP
    PERFORM passage_audit_append(r.app, r.events, c->>'at');
  END LOOP;
  RETURN NULL;
END $$`;

const ON_UPDATE = `CREATE OR REPLACE FUNCTION passage_audit_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE c jsonb := passage_audit_context(); r record;
BEGIN
  IF c IS NULL THEN RETURN NULL; END IF;
  FOR r IN SELECT n.app, jsonb_agg(passage_audit_base(c, n.entity, n.id) || jsonb_build_object(
             'action', passage_audit_update_action(c, n.entity, o.data, n.data),
             'changes', passage_audit_diff(o.data, n.data)) ORDER BY n.updated_date, n.id) AS events
           FROM audit_new n JOIN audit_old o USING (app, entity, id) GROUP BY n.app LOOP
    PERFORM passage_audit_append(r.app, r.events, c->>'at');
  END LOOP;
  RETURN NULL;
END $$`;

const ON_DELETE = `CREATE OR REPLACE FUNCTION passage_audit_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE c jsonb := passage_audit_context(); r record;
BEGIN
  IF c IS NULL THEN RETURN NULL; END IF;
  FOR r IN SELECT app, jsonb_agg(passage_audit_base(c, entity, id) || jsonb_build_object(
             'action', CASE WHEN entity = 'Enrollment' THEN 'unenroll' ELSE 'delete' END,
             'changes', passage_audit_fields(data, false)) ORDER BY entity, id) AS events
           FROM audit_old GROUP BY app LOOP
    PERFORM passage_audit_append(r.app, r.events, c->>'at');
  END LOOP;
  RETURN NULL;
END $$`;

const REFUSE = `CREATE OR REPLACE FUNCTION passage_audit_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The audit trail is append-only: % on % is refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END $$`;

const recordTrigger = (event: 'INSERT' | 'UPDATE' | 'DELETE', fn: string, tables: string) =>
  `CREATE OR REPLACE TRIGGER records_audit_${event.toLowerCase()} AFTER ${event} ON records
     REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`;

/** Run by the migration (schema.ts) after `records` exists, under its advisory lock, in its transaction. */
export const AUDIT_STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS audit_events (
     app text NOT NULL,
     seq bigint NOT NULL,
     id text COLLATE "C" NOT NULL,
     created_date text COLLATE "C" NOT NULL,
     data jsonb NOT NULL,
     prev_hash bytea NOT NULL,
     hash bytea NOT NULL,
     PRIMARY KEY (app, seq)
   )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS audit_events_id ON audit_events (app, id)`,
  // The Audit page lists newest first (-created_date, ties by id), filtered by person, entity,
  // record or action and a date range: one index per filter ending in (created_date, id), so a
  // page is a backward index scan that stops after `limit` rows (measured on 1,000,000 events in
  // test/bench/audit-bench.ts; figures in README.md).
  `CREATE INDEX IF NOT EXISTS audit_events_created ON audit_events (app, created_date, id)`,
  ...AUDIT_INDEXED_FIELDS.map(
    (f) => `CREATE INDEX IF NOT EXISTS audit_events_${f} ON audit_events (app, (data->>'${f}'), created_date, id)`,
  ),
  `CREATE TABLE IF NOT EXISTS audit_heads (
     app text PRIMARY KEY,
     seq bigint NOT NULL,
     hash bytea NOT NULL,
     created_date text COLLATE "C" NOT NULL
   )`,
  APPEND,
  CONTEXT,
  BASE,
  FIELDS,
  DIFF,
  UPDATE_ACTION,
  ON_INSERT,
  ON_UPDATE,
  ON_DELETE,
  REFUSE,
  recordTrigger('INSERT', 'passage_audit_inserted', 'NEW TABLE AS audit_new'),
  recordTrigger('UPDATE', 'passage_audit_updated', 'OLD TABLE AS audit_old NEW TABLE AS audit_new'),
  recordTrigger('DELETE', 'passage_audit_deleted', 'OLD TABLE AS audit_old'),
  `CREATE OR REPLACE TRIGGER audit_events_no_change BEFORE UPDATE OR DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION passage_audit_refuse()`,
  `CREATE OR REPLACE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION passage_audit_refuse()`,
  `CREATE OR REPLACE TRIGGER audit_heads_no_delete BEFORE DELETE ON audit_heads FOR EACH ROW EXECUTE FUNCTION passage_audit_refuse()`,
  `CREATE OR REPLACE TRIGGER audit_heads_no_truncate BEFORE TRUNCATE ON audit_heads FOR EACH STATEMENT EXECUTE FUNCTION passage_audit_refuse()`,
];

/** Every event field, in the order the API documents them; missing ones are null. */
const EVENT_FIELDS = [
  'actor_id', 'actor_email', 'device_id', 'address', 'client_time', 'entity', 'record_id', 'action', 'outcome', 'changes', 'reason',
] as const;

/** An input event with every field present (null when not given), so all events have one shape. */
export function fullEvent(input: AuditInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of EVENT_FIELDS) out[f] = (input as unknown as Record<string, unknown>)[f] ?? null;
  out.outcome = input.outcome ?? 'success';
  return out;
}

/** Appends events (one transaction is the caller's: `tx`), chained after the app's head. */
export async function appendAuditEvents(tx: SqlExecutor, app: string, events: AuditInput[], at: string): Promise<void> {
  if (events.length === 0) return;
  await tx.query('SELECT passage_audit_append($1, $2::jsonb, $3)', [app, JSON.stringify(events.map(fullEvent)), at]);
}

/** The SELECT list that turns a row of audit_events into the API's record (hashes in hex). */
export const AUDIT_RECORD_SQL = `data || jsonb_build_object('hash', encode(hash, 'hex'), 'prev_hash', encode(prev_hash, 'hex'))`;

