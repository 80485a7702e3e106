import Dexie, { type Table } from 'dexie';
import { TABLE_OF, type OutboxOp, type PassageDB } from '../db';
import type { EntityName } from '../../../shared/entities';
import { rebaseRow } from './rebase';
import { settleTap } from './later-tap';
import { referencesTo } from './references';
import type { Row } from './types';

/**
 * The engine's writes to the mirror. Each function expects to run inside ONE caller's transaction
 * over all tables (`inAllTables`), so a server answer lands whole or not at all (S1, S2).
 */

export function inAllTables<T>(db: PassageDB, work: () => Promise<T>): Promise<T> {
  return db.transaction('rw', db.tables, work);
}

function table(db: PassageDB, entity: EntityName): Table<Record<string, unknown>, string> {
  return db.table(TABLE_OF[entity]);
}

export async function opsOfRecord(db: PassageDB, entity: EntityName, id: string): Promise<OutboxOp[]> {
  return db.outbox.where('[entity+record_id]').equals([entity, id]).sortBy('seq');
}

/** Put the server's row in the mirror, rebased on the record's queued ops (S5). */
export async function putRebased(db: PassageDB, entity: EntityName, server: Row): Promise<void> {
  const ops = await opsOfRecord(db, entity, server.id);
  const row = rebaseRow(server, ops);
  if (row) await table(db, entity).put(row);
  else await table(db, entity).delete(server.id);
}

/**
 * S2: the server created the records these ops describe. Rewrite each temporary id everywhere —
 * the row, every reference to it, every queued op, conflicts — keep an alias, drop the create ops
 * and store the server's rows with any later queued edits on top. Batched: one outbox pass and
 * one indexed query per reference field for the whole batch (a bulk create answers 100 at once).
 */
export async function applyCreatedMany(db: PassageDB, created: Array<{ op: OutboxOp; server: Row }>): Promise<void> {
  if (created.length === 0) return;
  const entity = created[0].op.entity;
  const newIdOf = new Map<string, string>();
  for (const { op, server } of created) if (op.record_id !== server.id) newIdOf.set(op.record_id, server.id);
  const tempIds = [...newIdOf.keys()];
  // The date of the server row as it was created (its body is this device's create): an adopted
  // lost create may have been edited on the server since (another device, an administrator), and
  // an edit queued behind it must be merged against those changes, not on top of them (S4).
  const createdDate = new Map(created.map(({ server }) => [server.id, (server.created_date ?? server.updated_date) as string]));

  await db.outbox.bulkDelete(created.map(({ op }) => op.seq!));
  if (tempIds.length > 0) {
    await table(db, entity).bulkDelete(tempIds);
    for (const ref of referencesTo(entity)) {
      await table(db, ref.entity)
        .where(ref.field)
        .anyOf(tempIds)
        .modify((row) => {
          row[ref.field] = newIdOf.get(row[ref.field] as string);
        });
    }
    await db.conflicts
      .where('[entity+record_id]')
      .anyOf(tempIds.map((id) => [entity, id]))
      .modify((c) => {
        c.record_id = newIdOf.get(c.record_id)!;
      });
    await db.aliases.bulkPut(tempIds.map((temp_id) => ({ temp_id, entity, server_id: newIdOf.get(temp_id)! })));
  }
  const refFields = referencesTo(entity);
  // Only the ops this can change, found by their clear index keys: ops of these records (by a
  // temporary or a server id) and ops of the entities that refer to this one. The whole queue
  // was visited before, each op unsealed (issue #14): ten batches of a 1,000-op push read it ten
  // times. Returning false leaves an op untouched: Dexie would otherwise write back every op it visits.
  const candidates = new Set<number>(await db.outbox.where('record_id').anyOf([...tempIds, ...createdDate.keys()]).primaryKeys());
  for (const refEntity of new Set(refFields.map((r) => r.entity))) {
    const seqs = await db.outbox.where('[entity+record_id]').between([refEntity, Dexie.minKey], [refEntity, Dexie.maxKey]).primaryKeys();
    for (const seq of seqs) candidates.add(seq);
  }
  await db.outbox.where('seq').anyOf([...candidates]).modify((o) => {
    let changed = false;
    if (o.entity === entity && newIdOf.has(o.record_id)) {
      o.record_id = newIdOf.get(o.record_id)!;
      changed = true;
    }
    for (const ref of refFields) {
      const target = o.data[ref.field];
      if (o.entity === ref.entity && typeof target === 'string' && newIdOf.has(target)) {
        o.data = { ...o.data, [ref.field]: newIdOf.get(target) };
        changed = true;
      }
    }
    // Edits queued while the create was in flight (or its answer lost) were based on its body.
    if (o.entity === entity && o.kind === 'update' && o.base_updated_date == null && createdDate.has(o.record_id)) {
      o.base_updated_date = createdDate.get(o.record_id)!;
      changed = true;
    }
    return changed;
  });
  const ids = created.map(({ server }) => server.id);
  const queued = await db.outbox.where('record_id').anyOf(ids).toArray();
  const puts: Record<string, unknown>[] = [];
  const deletes: string[] = [];
  for (const { server } of created) {
    const row = rebaseRow(server, queued.filter((o) => o.entity === entity && o.record_id === server.id));
    if (row) puts.push(row);
    else deletes.push(server.id);
  }
  await table(db, entity).bulkPut(puts);
  await table(db, entity).bulkDelete(deletes);
}

/**
 * S16: the server answered this create with the record another device made for the same natural
 * key (an attendance's session and participant). The temporary id becomes that record's (S2, as
 * for any create); then the later tap wins (later-tap.ts): if it is this device's, its values go
 * out as an update of that record; either way each field both chose differently is an open
 * conflict, so the losing tap can be reviewed and restored. Fields a later queued edit of this
 * record already sets are left to that edit.
 */
export async function applyAnsweredByHolder(db: PassageDB, op: OutboxOp, server: Row, now: number): Promise<void> {
  await applyCreatedMany(db, [{ op, server }]);
  const later = await opsOfRecord(db, op.entity, server.id);
  const covered = new Set(later.flatMap((o) => Object.keys(o.data)));
  const outcome = settleTap(op.entity, op.data, server);
  const send = Object.fromEntries(Object.entries(outcome.send).filter(([f]) => !covered.has(f)));
  const serverDate = (server.updated_date as string | undefined) ?? null;
  const conflicts = Object.fromEntries(Object.entries(outcome.conflicts).map(([f, c]) => [f, { ...c, server_updated_date: serverDate }]));
  await addFieldConflicts(db, op.entity, server.id, conflicts, now);
  if (Object.keys(send).length === 0) return;
  await db.outbox.add({
    entity: op.entity,
    record_id: server.id,
    kind: 'update',
    data: send,
    base_values: Object.fromEntries(Object.keys(send).map((f) => [f, server[f] ?? null])),
    base_updated_date: serverDate,
    state: 'pending',
    attempts: 0,
    next_attempt_at: 0,
    user_id: op.user_id,
    created_at: op.created_at,
    // Issue #26: the tap was made when the create was; that is this update's edit time too.
    edited_at: op.edited_at ?? op.created_at,
  });
  await putRebased(db, op.entity, server);
}

export function applyCreated(db: PassageDB, op: OutboxOp, server: Row): Promise<void> {
  return applyCreatedMany(db, [{ op, server }]);
}

export interface FieldConflict {
  local: unknown;
  server: unknown;
  server_updated_date: string | null;
}

/** S4: the server accepted an update. Record its conflicts, drop the op, store the answer. */
export async function applyUpdated(
  db: PassageDB,
  op: OutboxOp,
  server: Row,
  conflicts: Record<string, FieldConflict>,
  now: number,
): Promise<void> {
  await db.outbox.delete(op.seq!);
  await addFieldConflicts(db, op.entity, server.id, conflicts, now);
  await putRebased(db, op.entity, server);
}

/** Open field conflicts a person can review (S4, S16): both values, and the server's date. */
async function addFieldConflicts(db: PassageDB, entity: EntityName, recordId: string, conflicts: Record<string, FieldConflict>, now: number): Promise<void> {
  for (const [field, c] of Object.entries(conflicts)) {
    await db.conflicts.add({
      entity,
      record_id: recordId,
      field,
      local_value: c.local,
      server_value: c.server,
      server_updated_date: c.server_updated_date,
      detected_at: now,
      status: 'open',
      kind: 'field',
    });
  }
}

/**
 * The tables a pulled page needs when no lost create is among its rows: the entity's table, the
 * outbox (read: rebase on queued ops) and syncState (the cursor). Narrower than `inAllTables` so
 * a page does not lock every table against the screens' commands and the other pulls' tables.
 */
export function inPageTables<T>(db: PassageDB, entity: EntityName, work: () => Promise<T>): Promise<T> {
  return db.transaction('rw', [table(db, entity), db.outbox, db.syncState], work);
}

/** Thrown by applyPulledPage in a page-only transaction when the page adopts a lost create (S3):
 * that rewrites ids in other tables, so the caller runs the page again over all tables. */
export class NeedsAllTables extends Error {
  constructor() {
    super('a pulled page adopts a lost create: retry over all tables');
  }
}

export interface PageOptions {
  /**
   * The table held no server row when this pull started and the pull reads keyset pages, so no
   * row of the page can be in the mirror yet: skip the bulkGet that only serves to leave
   * unchanged rows alone (a first sync's 5,000-row pages would each read 5,000 missing keys).
   */
  fresh?: boolean;
  /** Running inside `inAllTables` (adoption allowed); otherwise adoption throws NeedsAllTables. */
  allTables?: boolean;
}

/**
 * A page of pulled rows (S5), in the caller's transaction. Rows with queued ops are rebased; rows
 * the mirror already has at the same updated_date (the overlap window) are skipped. A row carrying
 * the client_ref of a create this device still holds under a temporary id is that create, whose
 * answer was lost: it is adopted (S3). Batched reads and writes: the entity's ops by index, one
 * bulkGet (none on a fresh table), one bulkPut per page, because a first sync applies pages of
 * 5,000 rows. Returns how many rows changed the mirror.
 */
export async function applyPulledPage(db: PassageDB, entity: EntityName, rows: Row[], options: PageOptions = {}): Promise<number> {
  if (rows.length === 0) return 0;
  const t = table(db, entity);
  // [entity+record_id] sorts by record_id within the entity; ops of one record go in seq order.
  const ops = (await db.outbox.where('[entity+record_id]').between([entity, Dexie.minKey], [entity, Dexie.maxKey]).toArray()).sort(
    (a, b) => a.seq! - b.seq!,
  );
  const opsById = new Map<string, OutboxOp[]>();
  const createByRef = new Map<string, OutboxOp>();
  for (const op of ops) {
    opsById.set(op.record_id, [...(opsById.get(op.record_id) ?? []), op]);
    if (op.kind === 'create' && op.client_ref) createByRef.set(op.client_ref, op);
  }
  const lostAmong = (server: Row) => {
    const lost = typeof server.client_ref === 'string' ? createByRef.get(server.client_ref) : undefined;
    return lost && lost.record_id !== server.id ? lost : undefined;
  };
  if (!options.allTables && createByRef.size > 0 && rows.some(lostAmong)) throw new NeedsAllTables();
  const existing = options.fresh ? [] : await t.bulkGet(rows.map((r) => r.id));
  const puts: Record<string, unknown>[] = [];
  const deletes: string[] = [];
  let changed = 0;
  for (const [i, server] of rows.entries()) {
    const lost = createByRef.size > 0 ? lostAmong(server) : undefined;
    if (lost) {
      await applyCreated(db, lost, server);
      changed++;
      continue;
    }
    const current = existing[i];
    const recordOps = opsById.get(server.id) ?? [];
    if (current && server.updated_date != null && current.updated_date === server.updated_date && recordOps.length === 0) continue;
    // No queued op (nearly every row of a first sync): the server's row as it came, no copy.
    const row = recordOps.length === 0 ? server : rebaseRow(server, recordOps);
    if (row) puts.push(row);
    else deletes.push(server.id);
    changed++;
  }
  await t.bulkPut(puts);
  if (deletes.length) await t.bulkDelete(deletes);
  return changed;
}
