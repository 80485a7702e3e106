/**
 * Issue #9.5: the first-sync progress the screens show, derived (pure) from the durable syncState
 * rows — never kept anywhere else as the truth, so a reload or a crash mid-way reads exactly what
 * the mirror holds. An entity is done when its first pull ended or this user may not read it.
 */
import type { PassageDB, SyncStateRow } from '../db';
import type { EntityName } from '../../../shared/entities';
import type { EntityFirstSync } from './types';

/** One entity's first-sync progress from its syncState row (none yet: not begun). */
export function firstSyncEntry(entity: EntityName, state: SyncStateRow | undefined): EntityFirstSync {
  return {
    entity,
    done: !!state && (state.first_done === true || state.unreadable === true),
    rows: state?.first_rows ?? 0,
    total: state?.first_total ?? null,
  };
}

export function firstSyncOf(
  entities: readonly EntityName[],
  states: ReadonlyMap<EntityName, SyncStateRow>,
): { firstSync: EntityFirstSync[]; firstSyncComplete: boolean } {
  const firstSync = entities.map((e) => firstSyncEntry(e, states.get(e)));
  return { firstSync, firstSyncComplete: firstSync.every((f) => f.done) };
}

export async function readSyncStates(db: PassageDB, entities: readonly EntityName[]): Promise<Map<EntityName, SyncStateRow>> {
  const wanted = new Set(entities);
  const states = new Map<EntityName, SyncStateRow>();
  for (const row of await db.syncState.toArray()) if (wanted.has(row.entity)) states.set(row.entity, row);
  return states;
}

/** Whether every one of `entities` has finished its first pull (or cannot be read). */
export function allDone(entities: readonly EntityName[], states: ReadonlyMap<EntityName, SyncStateRow>): boolean {
  return entities.every((e) => firstSyncEntry(e, states.get(e)).done);
}
