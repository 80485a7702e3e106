/**
 * The one way a command changes data (S1): the mirror row and its outbox op in ONE Dexie
 * transaction, merged with the record's pending op when there is one; the engine is nudged only
 * after the transaction committed. Every function takes the device's data context first.
 */
import type { Table } from 'dexie';
import type { OutboxOp } from '../db';
import { TABLE_OF } from '../db';
import { notifyLocalWrite, type DataContext } from '../context';
import { guardQuota, RecordNotFoundError } from '../errors';
import type { EntityName } from '../../../shared/entities';
import { mergeChange, type Change } from '../sync/op-merge';
import { sameValue } from '../sync/same-value';
import { TEMP_ID_PREFIX } from '../sync/references';
import { resolvedId } from '../queries/by-id';

type Body = Record<string, unknown>;

/** Fields the platform owns; never sent in a create or update body. */
const SERVER_FIELDS = new Set(['id', 'created_date', 'updated_date', 'created_by', 'created_by_id']);

export function bodyOf(row: Body): Body {
  const out: Body = {};
  for (const [k, v] of Object.entries(row)) if (!SERVER_FIELDS.has(k) && v !== undefined) out[k] = v;
  return out;
}

function tableOf({ db }: DataContext, entity: EntityName) {
  return db.table(TABLE_OF[entity]);
}

/** The last op queued for a record (the only one a new change may merge with). */
async function lastOpOf({ db }: DataContext, entity: EntityName, recordId: string): Promise<OutboxOp | undefined> {
  const ops = await db.outbox.where('[entity+record_id]').equals([entity, recordId]).sortBy('seq');
  return ops[ops.length - 1];
}

async function queue(ctx: DataContext, entity: EntityName, recordId: string, change: Change, extra: Partial<OutboxOp> = {}, fresh = false): Promise<void> {
  const { db, now, userId } = ctx;
  // A record made a moment ago under a new temporary id has no op to merge with: no read.
  const last = fresh ? undefined : await lastOpOf(ctx, entity, recordId);
  const merged = mergeChange(last, change);
  if (merged.action === 'replace') {
    // Issue #26: a merged op carries the time of its latest edit (its edit time on the server).
    await db.outbox.put({ ...merged.op, edited_at: now(), ...(extra.resolves_conflict ? { resolves_conflict: true } : {}) });
    return;
  }
  if (merged.action === 'drop') {
    await db.outbox.delete(last!.seq!);
    return;
  }
  const op: OutboxOp = {
    entity,
    record_id: recordId,
    kind: change.kind,
    data: change.kind === 'delete' ? {} : change.data,
    base_values: change.kind === 'update' ? change.base_values : undefined,
    base_updated_date: change.kind === 'update' ? change.base_updated_date : undefined,
    snapshot: change.kind === 'delete' ? change.snapshot : undefined,
    state: 'pending',
    attempts: 0,
    next_attempt_at: 0,
    user_id: userId,
    created_at: now(),
    edited_at: now(),
    ...extra,
  };
  await db.outbox.add(op);
}

/** Create a record with a temporary id and a client_ref (S2, S3). Resolves with the mirror row. */
export async function createRecord<T extends object>(
  ctx: DataContext,
  entity: EntityName,
  input: Body,
  /** More writes that belong to the same transaction (e.g. the participant's pin, issue #22). */
  also?: { tables: Table[]; run: (row: Body) => Promise<void> },
): Promise<T> {
  const { db, now, newUuid } = ctx;
  const client_ref = newUuid();
  const body = bodyOf({ ...input, client_ref });
  const row = { ...body, id: `${TEMP_ID_PREFIX}${newUuid()}`, created_date: new Date(now()).toISOString() };
  const table = tableOf(ctx, entity);
  await guardQuota(() =>
    db.transaction('rw', [table, db.outbox, ...(also?.tables ?? [])], async () => {
      await table.add(row);
      await queue(ctx, entity, row.id, { kind: 'create', data: body }, { client_ref }, true);
      await also?.run(row);
    }),
  );
  notifyLocalWrite(ctx);
  return row as unknown as T;
}

/**
 * Queue an existing mirror row as a create again, with a fresh client_ref (S3): a record the
 * server no longer has that a person chose to keep (S6). Runs inside the caller's transaction,
 * which must cover the record's table and the outbox.
 */
export async function requeueAsCreate(ctx: DataContext, entity: EntityName, row: Body): Promise<void> {
  const client_ref = ctx.newUuid();
  await tableOf(ctx, entity).put({ ...row, client_ref });
  await queue(ctx, entity, String(row.id), { kind: 'create', data: bodyOf({ ...row, client_ref }) }, { client_ref });
}

/**
 * What an edit form's save is based on (S18): the record's values and updated_date as the form
 * opened, when another device may have changed it since (the mirror then holds the newer values).
 */
export interface EditBasis {
  values: Record<string, unknown>;
  updated_date: string | null;
}

/**
 * Change some fields. Only fields whose value really changes are queued, with the value they had
 * (the base) and the row's updated_date, so the engine can merge per field (S4). With `basis` (an
 * edit form's), the base is what the person saw when the form opened, not the mirror's newer row:
 * a field both they and another device changed is then a conflict, not a silent overwrite.
 */
export async function updateRecord<T extends object>(
  ctx: DataContext,
  entity: EntityName,
  id: string,
  patch: Body,
  /** More writes that belong to the same transaction (e.g. the cached current user). */
  also?: { tables: Table[]; run: (row: Body) => Promise<void> },
  /** Issue #26: the change is a person's answer to a conflict (the Sync page). */
  mark?: { resolvesConflict?: boolean; basis?: EditBasis },
): Promise<T> {
  const { db } = ctx;
  const realId = await resolvedId(ctx, id);
  const table = tableOf(ctx, entity);
  let result: Body | undefined;
  let changedAny = false;
  await guardQuota(() =>
    db.transaction('rw', [table, db.outbox, ...(also?.tables ?? [])], async () => {
      const row = (await table.get(realId)) as Body | undefined;
      if (!row) throw new RecordNotFoundError(entity, id);
      const data: Body = {};
      const base_values: Body = {};
      for (const [field, value] of Object.entries(bodyOf(patch))) {
        if (field === 'client_ref' || sameValue(row[field], value)) continue;
        data[field] = value;
        const basis = mark?.basis;
        base_values[field] = basis && Object.hasOwn(basis.values, field) ? (basis.values[field] ?? null) : (row[field] ?? null);
      }
      result = { ...row, ...data };
      if (Object.keys(data).length === 0) return;
      changedAny = true;
      await table.put(result);
      const base_updated_date = mark?.basis ? mark.basis.updated_date : ((row.updated_date as string | undefined) ?? null);
      await queue(ctx, entity, realId, { kind: 'update', data, base_values, base_updated_date }, mark?.resolvesConflict ? { resolves_conflict: true } : {});
      await also?.run(result);
    }),
  );
  if (changedAny) notifyLocalWrite(ctx);
  return result as unknown as T;
}

/**
 * Delete a record locally and queue its delete; a never-pushed create simply disappears.
 * `guard` runs inside the same transaction before anything changes and may throw to refuse.
 */
export async function deleteRecord(
  ctx: DataContext,
  entity: EntityName,
  id: string,
  guard?: { tables: Table[]; check: (id: string) => Promise<void> },
): Promise<void> {
  const { db } = ctx;
  const realId = await resolvedId(ctx, id);
  const table = tableOf(ctx, entity);
  await guardQuota(() =>
    db.transaction('rw', [table, db.outbox, ...(guard?.tables ?? [])], async () => {
      const row = (await table.get(realId)) as Body | undefined;
      if (!row) throw new RecordNotFoundError(entity, id);
      await guard?.check(realId);
      await table.delete(realId);
      await queue(ctx, entity, realId, { kind: 'delete', snapshot: row });
    }),
  );
  notifyLocalWrite(ctx);
}

const emails = new WeakMap<DataContext, { userId: string; email: string }>();

/**
 * The signed-in person's e-mail, from the coach directory (clear on the tablet), or null. Read
 * once per device and user: every attendance tap stamps it, and a tap should cost one write.
 */
export async function myEmail(ctx: DataContext): Promise<string | null> {
  if (!ctx.userId) return null;
  const known = knownEmail(ctx);
  if (known) return known;
  const email = (await ctx.db.users.get(ctx.userId))?.email ?? null;
  if (email) emails.set(ctx, { userId: ctx.userId, email });
  return email;
}

/** The e-mail `myEmail` already read for this device's user, without waiting (undefined before). */
export function knownEmail(ctx: DataContext): string | undefined {
  const known = emails.get(ctx);
  return known && known.userId === ctx.userId ? known.email : undefined;
}

/** Today on this device's clock as YYYY-MM-DD in local time (intake dates, requested_access_date). */
export function todayIso(ctx: DataContext): string {
  const d = new Date(ctx.now());
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
