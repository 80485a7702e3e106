import { TABLE_OF, type SyncStateRow } from '../db';
import type { EntityName } from '../../../shared/entities';
import { classifyError, type ErrorClass } from './classify-error';
import { runLanes } from './lanes';
import { applyPulledPage, inAllTables, inPageTables, NeedsAllTables } from './mirror-writes';
import { firstPage, nextPage, type PageQuery } from './pull-pages';
import { markUnreadable } from './pull-runner';
import type { RunnerContext } from './runner-context';
import { flatKeys, keyFilters, splitKeys, type ScopeKey } from './scope';
import type { Row } from './types';

/**
 * Issue #22: the writing side of a scoped pull, shared by the plain path (pullByKeys: filtered,
 * chunked requests) and the fast path (scope-fast-pull.ts: one answer for the whole scope).
 */

/** This entity's sync state as stored, or a new one. */
export async function scopedState(ctx: RunnerContext, entity: EntityName): Promise<SyncStateRow> {
  return (await ctx.db.syncState.get(entity)) ?? { entity, cursor: null, last_pulled_at: null, last_reconciled_at: null };
}

/** A first pull starts counting its rows (issue #9.5's progress); the total is not known in a scope. */
export async function startFirstPull(ctx: RunnerContext, state: SyncStateRow): Promise<void> {
  if (state.first_done || state.first_rows !== undefined) return;
  state.first_rows = 0;
  state.first_total = null;
  state.unreadable = false;
  await ctx.db.syncState.put(state);
  ctx.progress?.(state.entity, { ...state });
}

/** Whether the table is empty with no cursor: the pull lists the whole scope into nothing. */
export async function pullsIntoNothing(ctx: RunnerContext, state: SyncStateRow): Promise<boolean> {
  return state.cursor === null && (await ctx.db.table(TABLE_OF[state.entity]).count()) === 0;
}

/**
 * One page of rows into the mirror (rebased over queued ops, lost creates adopted: S3, S5), in its
 * own transaction, counting a first pull's rows. The cursor does not move here.
 */
export async function writeScopedRows(ctx: RunnerContext, state: SyncStateRow, rows: Row[], fresh: boolean): Promise<void> {
  if (rows.length === 0) return;
  const { db } = ctx;
  const firstPull = !state.first_done;
  const write = async (allTables: boolean) => {
    const changed = await applyPulledPage(db, state.entity, rows, { fresh, allTables });
    if (!firstPull) return;
    state.first_rows = (state.first_rows ?? 0) + changed;
    await db.syncState.put(state);
  };
  try {
    await inPageTables(db, state.entity, () => write(false));
  } catch (error) {
    if (!(error instanceof NeedsAllTables)) throw error;
    await inAllTables(db, () => write(true));
  }
  if (firstPull) ctx.progress?.(state.entity, { ...state });
}

/**
 * Every row of the pull is in: the cursor moves to the high-water mark taken before any was read
 * (every row written later has a later updated_date), the keys it covers are recorded, and the
 * first pull ends. A pull of the whole scope into an empty table listed every id the scope has:
 * it is also a reconcile (S6), so the first sync does not list them all again right after.
 */
export async function finishScopedPull(ctx: RunnerContext, state: SyncStateRow, keys: string[], highWater: string | null, fresh: boolean): Promise<void> {
  const cursor = highWater && (state.cursor === null || highWater > state.cursor) ? highWater : state.cursor;
  const done: SyncStateRow = {
    ...state,
    cursor,
    scope_keys: keys,
    last_pulled_at: ctx.clock.now(),
    unreadable: false,
    first_done: true,
    projection: null,
    last_reconciled_at: fresh ? ctx.clock.now() : state.last_reconciled_at,
  };
  await ctx.db.syncState.put(done);
  ctx.progress?.(state.entity, { ...done });
}

/**
 * S5 within the scope, on the plain platform API: what the cursor already covers is pulled from it
 * (`updated_date >= cursor − overlap`); keys new to the scope from the start. Each query is chunked
 * (`$in`, issue #22.5) and paged like pullEntity. The cursor and the covered keys move once, after
 * every page is in: a pull cut off half way is repeated from the old cursor (rows already written
 * are skipped as unchanged).
 */
export async function pullByKeys(ctx: RunnerContext, entity: EntityName, keys: ScopeKey[], highWater: string | null): Promise<ErrorClass | null> {
  const { transport, tuning } = ctx;
  const state = await scopedState(ctx, entity);
  const covered = state.cursor === null ? [] : (state.scope_keys ?? null);
  const { known, added } = splitKeys(keys, covered);
  const fresh = await pullsIntoNothing(ctx, state);
  await startFirstPull(ctx, state);
  const since = firstPage(state.cursor, tuning.overlapMs);
  const queries: Array<{ base: Record<string, unknown>; start: PageQuery }> = [
    ...keyFilters(added).map((base) => ({ base, start: { from: null, skip: 0 } })),
    ...keyFilters(known).map((base) => ({ base, start: since })),
  ];
  let written = 0;
  // One lane per chunk, `concurrency` at a time: the next chunk's request is out while a page is
  // written. Any failure (a stop, a refusal, a timeout) starts no further chunk and keeps the old
  // cursor; every lane ends before this returns (no request outlives the cycle).
  const pullQuery = async ({ base, start }: (typeof queries)[number]): Promise<ErrorClass | null> => {
    let query: PageQuery | null = start;
    while (query) {
      let page: Row[];
      try {
        page = await transport.filter(entity, query.from ? { ...base, updated_date: { $gte: query.from } } : base, 'updated_date', tuning.pageSize, query.skip || undefined);
      } catch (error) {
        const stop = classifyError(error);
        if (stop.kind === 'reject' && written === 0) await markUnreadable(ctx, entity);
        return stop;
      }
      await writeScopedRows(ctx, state, page, fresh);
      if (page.length > 0) written++;
      query = nextPage(query, page, tuning.pageSize);
    }
    return null;
  };
  const failed = await runLanes(queries, tuning.concurrency, pullQuery, (result) => result !== null);
  if (failed) return failed;
  await finishScopedPull(ctx, state, flatKeys(keys), highWater, fresh);
  return null;
}
