/**
 * The Sync page's own reads. The data layer's status hook gives counts, rejected ops and conflicts;
 * the page also lists what is still queued and names each record, which no other screen needs.
 * Read-only: every change goes through data/commands/sync-ops (retry, edit, discard, resolve).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { DataContext } from '../context';
import { useDataContext } from '../provider';
import { TABLE_OF, type OutboxOp } from '../db';
import type { EntityName } from '../../../shared/entities';
import { titleOfRow } from '../../domain/record-title';
import { otherUsersWithPendingOps, pendingCountFor } from '../session';

/** The rows the Sync page lists: screens take their types from here, never from db.ts. */
export type { ConflictRow, OutboxOp } from '../db';

export interface RecordRef {
  entity: EntityName;
  record_id: string;
}

export const refKey = (r: RecordRef) => `${r.entity}:${r.record_id}`;

/** The signed-in user's ops still waiting to go (queued or in flight), oldest first. */
export function usePendingOps(userId: string | null): OutboxOp[] | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => {
    const ops = await db.outbox.where('state').anyOf('pending', 'inflight').toArray();
    return ops.filter((o) => o.user_id === userId).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  }, [db, userId]);
}

async function rowOf({ db }: DataContext, entity: EntityName, id: unknown): Promise<Record<string, unknown> | undefined> {
  if (typeof id !== 'string') return undefined;
  const table = db.table(TABLE_OF[entity]);
  const row = (await table.get(id)) as Record<string, unknown> | undefined;
  if (row) return row;
  // A temporary id already replaced by the server's (S2): follow the alias.
  const alias = await db.aliases.get(id);
  if (alias) return (await table.get(alias.server_id)) as Record<string, unknown> | undefined;
  // Deleted on the server and so taken out of the mirror (issue #9.7): its conflict keeps the copy.
  const vanished = await db.conflicts
    .where('[entity+record_id]')
    .equals([entity, id])
    .filter((c) => c.kind === 'vanished')
    .last();
  return (vanished?.local_value as Record<string, unknown> | undefined) ?? undefined;
}

/**
 * Names of these records as the mirror has them now (key: `refKey`); live. `undefined` until the
 * names of exactly these records are read, so a row never flashes 'Unnamed record' while a
 * previous, shorter list's answer is still the latest one.
 */
export function useRecordTitles(refs: RecordRef[]): Map<string, string> | undefined {
  const ctx = useDataContext();
  const keys = [...new Set(refs.map(refKey))].sort().join('|');
  const result = useLiveQuery(async () => {
    const titles = new Map<string, string>();
    for (const key of keys ? keys.split('|') : []) {
      const cut = key.indexOf(':');
      const entity = key.slice(0, cut) as EntityName;
      const row = await rowOf(ctx, entity, key.slice(cut + 1));
      const related =
        entity === 'Enrollment' || entity === 'Outcome' || entity === 'Attendance'
          ? { participant: await rowOf(ctx, 'Participant', row?.participant_id), cohort: await rowOf(ctx, 'Cohort', row?.cohort_id) }
          : {};
      const title = titleOfRow(entity, row, related);
      if (title) titles.set(key, title);
    }
    return { keys, titles };
  }, [ctx, keys]);
  return result?.keys === keys ? result.titles : undefined;
}

/** Another user whose changes still wait on this device, with how many (S11). */
export interface PendingOwner {
  id: string;
  count: number;
}

/** Live: the users other than `userId` with ops in the outbox (the S11 gate); undefined while loading. */
export function usePendingOwners(userId: string): PendingOwner[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async (): Promise<PendingOwner[]> => {
    const ids = await otherUsersWithPendingOps(ctx, userId);
    return Promise.all(ids.map(async (id) => ({ id, count: await pendingCountFor(ctx, id) })));
  }, [userId, ctx]);
}
