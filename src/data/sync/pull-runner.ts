import { TABLE_OF, type SyncStateRow } from '../db';
import type { EntityName } from '../../../shared/entities';
import { classifyError, type ErrorClass } from './classify-error';
import { applyPulledPage, inAllTables } from './mirror-writes';
import { firstPage, newestDate, nextPage } from './pull-pages';
import { isTempId } from './references';
import type { RunnerContext } from './runner-context';
import type { Row } from './types';

/**
 * S5 incremental pull of one entity: pages of `updated_date >= cursor − overlap`, each page
 * applied (rebased over pending ops) and the cursor advanced in ONE transaction, so a crash
 * between pages loses nothing and repeats nothing.
 * Returns null on success, the error class otherwise ('reject' = no permission to read it).
 */
export async function pullEntity(ctx: RunnerContext, entity: EntityName): Promise<ErrorClass | null> {
  const { db, transport, tuning } = ctx;
  const state: SyncStateRow = (await db.syncState.get(entity)) ?? {
    entity,
    cursor: null,
    last_pulled_at: null,
    last_reconciled_at: null,
  };
  // A pull from nothing into an empty table lists every row the server has: it is also a
  // reconcile (S6), so the first sync does not list every id again right after.
  const table = db.table(TABLE_OF[entity]);
  const fresh = state.cursor === null && (await table.filter((r: { id: string }) => !isTempId(r.id)).count()) === 0;
  let query: ReturnType<typeof nextPage> = firstPage(state.cursor, tuning.overlapMs);
  while (query) {
    let page: Row[];
    try {
      const q = query.from ? { updated_date: { $gte: query.from } } : {};
      page = await transport.filter(entity, q, 'updated_date', tuning.pageSize, query.skip || undefined);
    } catch (error) {
      return classifyError(error);
    }
    const partial = page.some((r) => r.updated_date == null);
    await inAllTables(db, async () => {
      if (partial) for (const row of page) await mergeProjection(ctx, entity, row);
      else await applyPulledPage(db, entity, page);
      state.cursor = partial ? state.cursor : newestDate(state.cursor, page);
      state.last_pulled_at = ctx.clock.now();
      await db.syncState.put(state);
    });
    query = nextPage(query, page, tuning.pageSize);
  }
  // A projection (no updated_date) leaves the cursor null; only a real cursor pull counts.
  if (fresh && state.cursor !== null) await db.syncState.update(entity, { last_reconciled_at: ctx.clock.now() });
  return null;
}

/** A row the server sent only some fields of: keep what the mirror already knows. */
async function mergeProjection(ctx: RunnerContext, entity: EntityName, row: Row): Promise<void> {
  const table = ctx.db.table(TABLE_OF[entity]);
  const existing = (await table.get(row.id)) as Record<string, unknown> | undefined;
  await table.put({ ...existing, ...row });
}
