import type { Table } from 'dexie';
import { TABLE_OF, type OutboxOp, type PassageDB } from '../db';
import type { EntityName } from '../types';
import { rebaseRow } from './rebase';
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
 * S2: the server created the record `op` describes. Rewrite the temporary id everywhere — the
 * row, every reference to it, every queued op, conflicts — keep an alias, drop the create op and
 * store the server's row with any later queued edits on top.
 */
export async function applyCreated(db: PassageDB, op: OutboxOp, server: Row): Promise<void> {
  const tempId = op.record_id;
  const newId = server.id;
  await db.outbox.delete(op.seq!);
  if (tempId !== newId) {
    await table(db, op.entity).delete(tempId);
    for (const ref of referencesTo(op.entity)) {
      await table(db, ref.entity).where(ref.field).equals(tempId).modify({ [ref.field]: newId });
    }
    const refFields = referencesTo(op.entity);
    await db.outbox.toCollection().modify((o) => {
      if (o.entity === op.entity && o.record_id === tempId) o.record_id = newId;
      for (const ref of refFields) {
        if (o.entity === ref.entity && o.data[ref.field] === tempId) o.data = { ...o.data, [ref.field]: newId };
      }
    });
    await db.conflicts.where('[entity+record_id]').equals([op.entity, tempId]).modify({ record_id: newId });
    await db.aliases.put({ temp_id: tempId, entity: op.entity, server_id: newId });
  }
  // Edits queued while the create was in flight were based on the body the server now holds.
  await db.outbox
    .where('[entity+record_id]')
    .equals([op.entity, newId])
    .modify((o) => {
      if (o.kind === 'update' && o.base_updated_date == null) o.base_updated_date = server.updated_date as string;
    });
  await putRebased(db, op.entity, server);
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
  for (const [field, c] of Object.entries(conflicts)) {
    await db.conflicts.add({
      entity: op.entity,
      record_id: server.id,
      field,
      local_value: c.local,
      server_value: c.server,
      server_updated_date: c.server_updated_date,
      detected_at: now,
      status: 'open',
      kind: 'field',
    });
  }
  await putRebased(db, op.entity, server);
}

/**
 * A pulled row (S5). If it carries the client_ref of a record this device created and still holds
 * under a temporary id, its create reached the server but the answer was lost: adopt it (S3).
 * Returns false when the row was already in the mirror unchanged (seen in the overlap window).
 */
export async function applyPulledRow(db: PassageDB, entity: EntityName, server: Row): Promise<boolean> {
  const ref = server.client_ref;
  if (typeof ref === 'string' && ref) {
    const pendingCreate = await db.outbox
      .where('record_id')
      .anyOf(await localIdsWithClientRef(db, entity, ref, server.id))
      .filter((o) => o.entity === entity && o.kind === 'create' && o.client_ref === ref)
      .first();
    if (pendingCreate) {
      await applyCreated(db, pendingCreate, server);
      return true;
    }
  }
  const current = await table(db, entity).get(server.id);
  if (current && current.updated_date === server.updated_date && server.updated_date != null) return false;
  await putRebased(db, entity, server);
  return true;
}

async function localIdsWithClientRef(db: PassageDB, entity: EntityName, ref: string, serverId: string): Promise<string[]> {
  const t = table(db, entity);
  // Every mirror table with creates has a client_ref index except sessions/outcomes/users, which
  // this app never creates.
  if (!t.schema.idxByName.client_ref) return [];
  const rows = await t.where('client_ref').equals(ref).toArray();
  return rows.map((r) => r.id as string).filter((id) => id !== serverId);
}
