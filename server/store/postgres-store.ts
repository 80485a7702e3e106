/**
 * The one Store implementation, over any SqlClient (PGlite or PostgreSQL). Records live in `records`
 * keyed by (app, entity, id) with the whole record as jsonb; see schema.ts for tables and indexes,
 * filter-sql.ts and list-sql.ts for queries, clock.ts for updated_date, insert-sql.ts for creating
 * without duplicates. Here: records, auth records and app logs; sessions, sign-in codes and devices
 * are device-sql.ts, spread into the Store below.
 */
import { StoreError, badRequest, conflict, notFound, timedOut } from './errors';
import { isoAt, reserveTimestamps } from './clock';
import { deviceSql } from './device-sql';
import { auditPrelude, auditStore } from './audit-store';
import { auditSetting } from './audit-context';
import { feedSql } from './feed-sql';
import { compileFilter } from './filter-sql';
import { insertRecords } from './insert-sql';
import { limitOf, orderBy, projection, skipOf } from './list-sql';
import { clientFields, newId, newRecord, parsed, type Row } from './record-fields';
import { CDCR_KEY_SQL, migrate } from './schema';
import { CHANGES_CHANNEL, parseNotice } from './change-notices';
import type { SqlClient, SqlExecutor } from './sql-client';
import { uniqueKeyOf, valueOf } from './unique-keys';
import { Params, isPlainObject } from './sql-parts';
import type { AppLogEntry, AuthRecord, EntityRecord, Filter, ListQuery, RecordMeta, Store, UpdatedRecord } from './types';

export interface PostgresStoreOptions {
  /** Milliseconds since the epoch; injected so tests control time. */
  now?: () => number;
  /** Told what migrate() could not do, e.g. a unique index left out over duplicates (default console.warn). */
  warn?: (message: string) => void;
  /**
   * Issue #26: record no audit events. Only for the bench's on/off comparison, and only on PGlite
   * (one session); production always audits.
   */
  auditOff?: boolean;
}

/**
 * PostgreSQL "data exception" errors (class 22: invalid regex, \u0000 in text, numeric overflow…) can
 * only come from values a caller sent, so they are the caller's 400, not our 500.
 */
function asStoreError(err: unknown): unknown {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && code.startsWith('22') && !(err instanceof StoreError)) {
    return badRequest(`Invalid value: ${(err as Error).message}`);
  }
  // 57014 query_canceled: the statement ran past the statement timeout (sql-client.ts).
  if (code === '57014' && !(err instanceof StoreError)) {
    return timedOut('The database took too long to answer this request. Try a narrower search.');
  }
  // 23505 unique_violation: an update that gives a record another record's client_ref, or moves an
  // attendance onto a (session, participant) pair another record holds (S16). (A cohort code or
  // e-mail taken is answered by applyPatch, which knows the value; this is the fallback.)
  if (code === '23505' && !(err instanceof StoreError)) {
    const key = uniqueKeyOf(err);
    if (key) return key.refuse('');
    const constraint = String((err as { constraint?: unknown }).constraint ?? (err as Error).message ?? '');
    return constraint.includes('attendance')
      ? conflict('This participant already has an attendance record for this session')
      : conflict('Another record already has this client_ref');
  }
  return err;
}

async function mapErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asStoreError(err);
  }
}

export function createPostgresStore(sql: SqlClient, options: PostgresStoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  if (options.auditOff && sql.kind !== 'pglite') throw new Error('auditOff is for the PGlite bench only');
  /** Issue #26: every write transaction starts with the audit chain lock and its context (audit-sql.ts). */
  const audit = (tx: SqlExecutor, app: string, ids: readonly string[]) =>
    options.auditOff ? Promise.resolve() : auditPrelude(tx, app, auditSetting(ids, isoAt(now())));

  async function createBatch(app: string, entity: string, data: unknown[], meta: RecordMeta): Promise<EntityRecord[]> {
    const cleaned = data.map(clientFields); // validates before anything is written
    const ids = cleaned.map(() => newId());
    return sql.transaction(async (tx) => {
      await audit(tx, app, ids);
      const first = await reserveTimestamps(tx, app, entity, now(), cleaned.length);
      const records = cleaned.map((d, i) => newRecord(d, meta, ids[i], isoAt(first + i)));
      // PostgreSQL caps a statement at 65535 parameters; 6 per row → chunks of 1000 rows.
      const out: EntityRecord[] = [];
      for (let i = 0; i < records.length; i += 1000) out.push(...(await insertRecords(tx, app, entity, records.slice(i, i + 1000))));
      return out;
    });
  }

  /** The record before and after; the row is locked by the first read (FOR UPDATE) until commit. */
  async function applyPatch(tx: SqlExecutor, app: string, entity: string, id: string, patch: unknown, at: string): Promise<UpdatedRecord | null> {
    const fields = JSON.stringify(clientFields(patch));
    const before = parsed(await tx.query<Row>('SELECT data::text AS data FROM records WHERE app = $1 AND entity = $2 AND id = $3 FOR UPDATE', [app, entity, id]))[0];
    if (!before) return null;
    const rows = await tx
      .query<Row>(
        `UPDATE records SET updated_date = $4, data = data || $5::jsonb || jsonb_build_object('updated_date', $4::text)
         WHERE app = $1 AND entity = $2 AND id = $3 RETURNING data::text AS data`,
        [app, entity, id, at, fields],
      )
      .catch((err: unknown) => {
        // Issue #25.2: a cohort code or e-mail another record holds, answered naming the value.
        const key = uniqueKeyOf(err);
        throw key ? key.refuse(valueOf(key, { ...before, ...JSON.parse(fields) }) ?? '') : err;
      });
    const record = parsed(rows)[0];
    return record ? { record, previous: before } : null;
  }

  const updateOne = (app: string, entity: string, id: string, patch: Record<string, unknown>) =>
    mapErrors(() =>
      sql.transaction(async (tx) => {
        clientFields(patch); // a 400 before the clock moves
        await audit(tx, app, [String(id)]);
        const at = isoAt(await reserveTimestamps(tx, app, entity, now(), 1));
        return applyPatch(tx, app, entity, String(id), patch, at);
      }),
    );

  const updateSeveral = (app: string, entity: string, patches: Array<{ id: string } & Record<string, unknown>>) =>
    mapErrors(async () => {
      if (!Array.isArray(patches)) throw badRequest('Expected an array of {id, …fields}');
      for (const patch of patches) {
        if (!isPlainObject(patch) || typeof patch.id !== 'string') throw badRequest('Every update needs a string id');
      }
      if (patches.length === 0) return [];
      return sql.transaction(async (tx) => {
        await audit(tx, app, patches.map((patch) => patch.id));
        // The clock row is locked first, as in update(), so concurrent writers never deadlock.
        const first = await reserveTimestamps(tx, app, entity, now(), patches.length);
        const out: UpdatedRecord[] = [];
        for (const [i, patch] of patches.entries()) {
          const updated = await applyPatch(tx, app, entity, patch.id, patch, isoAt(first + i));
          if (!updated) throw notFound(`No ${entity} with id ${patch.id}`);
          out.push(updated);
        }
        return out;
      });
    });

  return {
    migrate: async () => {
      await migrate(sql, options.warn);
      // The bench's comparison only (auditOff, a PGlite database of its own): the audit triggers are
      // switched off in that database. No setting a session could send turns auditing off.
      if (options.auditOff) {
        for (const op of ['insert', 'update', 'delete']) await sql.query(`ALTER TABLE records DISABLE TRIGGER records_audit_${op}`);
      }
    },
    close: () => sql.close(),
    underLock: (name, work) => sql.withLock(name, work),
    ping: async () => {
      await sql.query('SELECT 1 FROM records LIMIT 0');
    },
    onChanges: (listener) =>
      sql.listen(CHANGES_CHANNEL, (payload) => {
        const notice = parseNotice(payload);
        if (notice) listener(notice);
      }),

    list: (app, entity, query: ListQuery = {}) =>
      mapErrors(async () => {
        const p = new Params();
        const where = compileFilter(query.q, p);
        const select = projection(query.fields, p);
        const text =
          `SELECT (${select})::text AS data FROM records WHERE app = ${p.add(app)} AND entity = ${p.add(entity)} AND (${where})` +
          ` ORDER BY ${orderBy(query.sort)} LIMIT ${p.add(limitOf(query.limit))} OFFSET ${p.add(skipOf(query.skip))}`;
        return parsed(await sql.query<Row>(text, p.values));
      }),

    count: (app, entity, q?: Filter) =>
      mapErrors(async () => {
        const p = new Params();
        const where = compileFilter(q, p);
        const rows = await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM records WHERE app = ${p.add(app)} AND entity = ${p.add(entity)} AND (${where})`,
          p.values,
        );
        return Number(rows[0].n);
      }),

    get: (app, entity, id) =>
      mapErrors(async () => {
        const rows = await sql.query<Row>('SELECT data::text AS data FROM records WHERE app = $1 AND entity = $2 AND id = $3', [app, entity, String(id)]);
        return parsed(rows)[0] ?? null;
      }),

    create: (app, entity, data, meta) => mapErrors(async () => (await createBatch(app, entity, [data], meta))[0]),

    createMany: (app, entity, data, meta) =>
      mapErrors(async () => {
        if (!Array.isArray(data)) throw badRequest('Expected an array of records');
        return data.length ? createBatch(app, entity, data, meta) : [];
      }),

    update: async (app, entity, id, patch) => (await updateOne(app, entity, id, patch))?.record ?? null,
    updateMany: async (app, entity, patches) => (await updateSeveral(app, entity, patches)).map((u) => u.record),
    updateWithPrevious: updateOne,
    updateManyWithPrevious: updateSeveral,

    participantsByCdcrKey: (app, keys, limit) =>
      mapErrors(async () => {
        if (keys.length === 0) return [];
        // The same predicate as the partial index records_participant_cdcr, so the planner uses it.
        const rows = await sql.query<Row>(
          `SELECT data::text AS data FROM records WHERE app = $1 AND entity = 'Participant' AND data ? 'cdcr_number'
           AND ${CDCR_KEY_SQL} = ANY($2::text[]) ORDER BY created_date, id LIMIT $3`,
          [app, [...keys], limitOf(limit)],
        );
        return parsed(rows);
      }),

    delete: (app, entity, id) =>
      mapErrors(async () => {
        const rows = await sql.transaction(async (tx) => {
          await audit(tx, app, [String(id)]);
          return tx.query('DELETE FROM records WHERE app = $1 AND entity = $2 AND id = $3 RETURNING id', [app, entity, String(id)]);
        });
        return rows.length > 0;
      }),

    // Emails are case-insensitive in practice ("Ana@x.org" and "ana@x.org" are one person).
    getAuth: (app, email) =>
      mapErrors(async () => {
        const rows = await sql.query<{ data: AuthRecord }>('SELECT data FROM auth_records WHERE app = $1 AND email = $2', [app, email.toLowerCase()]);
        return rows[0]?.data ?? null;
      }),

    putAuth: (app, email, record) =>
      mapErrors(async () => {
        await sql.query(
          `INSERT INTO auth_records (app, email, data) VALUES ($1, $2, $3::jsonb)
           ON CONFLICT (app, email) DO UPDATE SET data = EXCLUDED.data`,
          [app, email.toLowerCase(), JSON.stringify(record)],
        );
      }),

    updateAuth: (app, email, change) =>
      mapErrors(() =>
        sql.transaction(async (tx) => {
          const key = email.toLowerCase();
          const rows = await tx.query<{ data: AuthRecord }>('SELECT data FROM auth_records WHERE app = $1 AND email = $2 FOR UPDATE', [app, key]);
          if (!rows[0]) return null;
          const next = change(rows[0].data);
          if (next === undefined) return rows[0].data;
          await tx.query('UPDATE auth_records SET data = $3::jsonb WHERE app = $1 AND email = $2', [app, key, JSON.stringify(next)]);
          return next;
        }),
      ),

    // Issue #26: the audit trail (audit-store.ts).
    ...auditStore(sql, { now, mapErrors }),

    // Sessions, sign-in codes and devices (issue #21).
    ...deviceSql(sql, { now, mapErrors }),

    // The change feed (issue #24.1, feed-sql.ts).
    ...feedSql(sql, { mapErrors }),

    appendLog: (app, entry: AppLogEntry) =>
      mapErrors(async () => {
        await sql.query(
          'INSERT INTO app_logs (app, id, page, user_id, user_email, created_date) VALUES ($1, $2, $3, $4, $5, $6)',
          [app, entry.id ?? newId(), String(entry.page), entry.user_id ?? null, entry.user_email ?? null, entry.created_date ?? isoAt(now())],
        );
      }),

    /** Newest first. */
    async listLogs(app, opts) {
      const rows = await sql.query<AppLogEntry>(
        `SELECT id, page, user_id, user_email, created_date FROM app_logs WHERE app = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3`,
        [app, limitOf(opts.limit), skipOf(opts.skip)],
      );
      return rows;
    },
  };
}
