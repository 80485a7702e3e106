/**
 * The Store's audit trail (issue #26, audit-sql.ts): appending events that are not record writes
 * (sign-ins, device key releases, exports…), reading events through the entity API's list language,
 * and walking the chain. Spread into the Store by postgres-store.ts, like device-sql.ts.
 */
import { isoAt } from './clock';
import { compileFilter } from './filter-sql';
import { limitOf, orderBy, projection, skipOf } from './list-sql';
import { AUDIT_INDEXED_FIELDS, AUDIT_LOCK_CLASS, AUDIT_RECORD_SQL, GENESIS_HASH, HASHED_TEXT_SQL, appendAuditEvents } from './audit-sql';
import type { SqlClient, SqlExecutor } from './sql-client';
import { Params, isPlainObject } from './sql-parts';
import type { AuditChainReport, EntityRecord, Filter, ListQuery, Store } from './types';

export type AuditStoreMethods = Pick<Store, 'appendAudit' | 'listAudit' | 'countAudit' | 'getAudit' | 'verifyAudit'>;

export interface AuditStoreContext {
  now: () => number;
  mapErrors: <T>(work: () => Promise<T>) => Promise<T>;
}

/** Takes the app's chain lock and sets the transaction's audit context (see audit-context.ts). */
export async function auditPrelude(tx: SqlExecutor, app: string, setting: string): Promise<void> {
  await tx.query(`SELECT set_config('passage.audit', $1, true), pg_advisory_xact_lock(${AUDIT_LOCK_CLASS}, hashtext($2))`, [setting, app]);
}

const INDEXED = new Set<string>(AUDIT_INDEXED_FIELDS);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');

/**
 * The filter's top-level equality conditions on the indexed fields, as `data->>'f'` conditions
 * the expression indexes answer (the general compiler's containment form could only use a GIN
 * index, and then sort every match). Same meaning: these fields hold strings or null, never arrays.
 */
function indexedConditions(q: Filter | undefined, p: Params): { conditions: string[]; rest: Filter | undefined } {
  if (!isPlainObject(q)) return { conditions: [], rest: q };
  const conditions: string[] = [];
  const rest: Filter = {};
  for (const [key, value] of Object.entries(q)) {
    const path = `(data->>'${key}')`;
    if (INDEXED.has(key) && typeof value === 'string') conditions.push(`${path} = ${p.add(value)}`);
    else if (INDEXED.has(key) && isPlainObject(value) && Object.keys(value).length === 1 && typeof value.$eq === 'string') conditions.push(`${path} = ${p.add(value.$eq)}`);
    else if (INDEXED.has(key) && (strings(value) || (isPlainObject(value) && Object.keys(value).length === 1 && strings(value.$in)))) {
      conditions.push(`${path} = ANY(${p.add(Array.isArray(value) ? value : value.$in)}::text[])`);
    } else rest[key] = value;
  }
  return { conditions, rest: Object.keys(rest).length ? rest : undefined };
}

function where(app: string, q: Filter | undefined, p: Params): string {
  const { conditions, rest } = indexedConditions(q, p);
  return [`app = ${p.add(app)}`, ...conditions, `(${compileFilter(rest, p)})`].join(' AND ');
}

type Row = { data: string };
const parsed = (rows: Row[]): EntityRecord[] => rows.map((r) => JSON.parse(r.data));

const BATCH = 5000;

/** Walks every app's chain in seq order; the first broken link of each, if any. */
export async function verifyAuditChain(sql: SqlExecutor): Promise<AuditChainReport[]> {
  const apps = await sql.query<{ app: string }>('SELECT app FROM audit_heads UNION SELECT DISTINCT app FROM audit_events ORDER BY app');
  const reports: AuditChainReport[] = [];
  for (const { app } of apps) {
    let expectedSeq = 1;
    let previous = GENESIS_HASH;
    let count = 0;
    let broken: AuditChainReport['broken'] = null;
    for (let after = 0; !broken; ) {
      const rows = await sql.query<{ seq: string; id: string; created_date: string; data_seq: string | null; data_id: string | null; data_date: string | null; prev_hash: string; hash: string; computed: string }>(
        `SELECT seq::text AS seq, id, created_date, data->>'seq' AS data_seq, data->>'id' AS data_id, data->>'created_date' AS data_date,
                encode(prev_hash, 'hex') AS prev_hash, encode(hash, 'hex') AS hash,
                encode(sha256(prev_hash || ${HASHED_TEXT_SQL}), 'hex') AS computed
           FROM audit_events WHERE app = $1 AND audit_events.seq > $2 ORDER BY audit_events.seq LIMIT ${BATCH}`,
        [app, after],
      );
      for (const r of rows) {
        const seq = Number(r.seq);
        const at = { seq, id: r.id };
        if (seq !== expectedSeq) broken = { ...at, problem: `an event is missing before this one (deleted?)`, expected: `seq ${expectedSeq}`, found: `seq ${seq}` };
        else if (r.prev_hash !== previous) broken = { ...at, problem: 'prev_hash is not the previous event’s hash (an event was removed, inserted or changed before this one)', expected: previous, found: r.prev_hash };
        else if (r.computed !== r.hash) broken = { ...at, problem: 'the event’s content does not match its hash (it was changed)', expected: r.computed, found: r.hash };
        else if (r.data_seq !== r.seq || r.data_id !== r.id || r.data_date !== r.created_date) {
          broken = { ...at, problem: 'seq, id or created_date differ from the hashed event', expected: `${r.data_seq} ${r.data_id} ${r.data_date}`, found: `${r.seq} ${r.id} ${r.created_date}` };
        }
        if (broken) break;
        count++;
        expectedSeq = seq + 1;
        previous = r.hash;
      }
      if (broken || rows.length < BATCH) break;
      after = Number(rows[rows.length - 1].seq);
    }
    if (!broken) {
      const head = (await sql.query<{ seq: string; hash: string }>(`SELECT seq::text AS seq, encode(hash, 'hex') AS hash FROM audit_heads WHERE app = $1`, [app]))[0];
      const last = expectedSeq - 1;
      if (!head) {
        if (count > 0) broken = { seq: last, id: null, problem: 'the chain has no head record (audit_heads)', expected: `seq ${last}`, found: 'none' };
      } else if (Number(head.seq) !== last || head.hash !== previous) {
        broken = { seq: last + 1, id: null, problem: 'the last events are missing (the head names a later event)', expected: `seq ${head.seq} ${head.hash}`, found: `seq ${last} ${previous}` };
      }
    }
    reports.push({ app, events: count, head: previous, broken });
  }
  return reports;
}

export function auditStore(sql: SqlClient, { now, mapErrors }: AuditStoreContext): AuditStoreMethods {
  return {
    appendAudit: (app, events) =>
      mapErrors(async () => {
        if (events.length === 0) return;
        await sql.transaction(async (tx) => {
          await auditPrelude(tx, app, '');
          await appendAuditEvents(tx, app, events, isoAt(now()));
        });
      }),

    listAudit: (app, query: ListQuery = {}) =>
      mapErrors(async () => {
        const p = new Params();
        const cond = where(app, query.q, p);
        const select = projection(query.fields, p);
        // Filter and order on the table (its indexes), then add the hashes to the page's rows.
        const text =
          `SELECT (${select})::text AS data FROM (SELECT id, ${AUDIT_RECORD_SQL} AS data FROM audit_events WHERE ${cond}` +
          ` ORDER BY ${orderBy(query.sort)} LIMIT ${p.add(limitOf(query.limit))} OFFSET ${p.add(skipOf(query.skip))}) AS page`;
        return parsed(await sql.query<Row>(text, p.values));
      }),

    countAudit: (app, q) =>
      mapErrors(async () => {
        const p = new Params();
        const rows = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE ${where(app, q, p)}`, p.values);
        return Number(rows[0].n);
      }),

    getAudit: (app, id) =>
      mapErrors(async () => {
        const rows = await sql.query<Row>(`SELECT (${AUDIT_RECORD_SQL})::text AS data FROM audit_events WHERE app = $1 AND id = $2`, [app, String(id)]);
        return parsed(rows)[0] ?? null;
      }),

    verifyAudit: () => mapErrors(() => verifyAuditChain(sql)),
  };
}
