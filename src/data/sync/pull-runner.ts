import type { Table } from 'dexie';
import { TABLE_OF, type SyncStateRow } from '../db';
import type { EntityName } from '../../../shared/entities';
import { classifyError, stopsCycle, type ErrorClass } from './classify-error';
import { allDone, readSyncStates } from './first-sync';
import { applyPulledPage, inAllTables, inPageTables, NeedsAllTables } from './mirror-writes';
import { firstPage, newestDate, nextPage, type PageQuery } from './pull-pages';
import { TEMP_ID_PREFIX } from './references';
import type { RunnerContext } from './runner-context';
import { runLanes } from './lanes';
import type { Row } from './types';

/**
 * What the first screens need (issue #11.3): on a first sync these entities are pulled before the
 * rest, so Participants and Cohorts are usable while enrollments, sessions and outcomes still come.
 * Programs, sites and users are a few hundred rows and name things on those screens.
 */
export const FIRST_SCREENS: readonly EntityName[] = ['Participant', 'Cohort', 'Program', 'Site', 'User'];

/**
 * Pull every entity, `tuning.concurrency` at a time (issue #11.3: one round trip per lane, not one
 * per entity). While the first screens' entities have not finished their first pull, they go
 * first and the rest waits until their pages are downloaded: on a thin link the big tables would
 * otherwise share its bandwidth.
 * Once one pull hits a stop (offline, 401, 5xx) no further entity starts. A 'reject' (this user
 * may not read that entity) skips only that entity.
 */
export async function pullAll(ctx: RunnerContext, entities: readonly EntityName[]): Promise<ErrorClass | null> {
  const lanes = (items: readonly EntityName[], work: (e: EntityName) => Promise<ErrorClass | null>) =>
    runLanes(items, ctx.tuning.concurrency, work, stopsCycle);
  const first = entities.filter((e) => FIRST_SCREENS.includes(e));
  const rest = entities.filter((e) => !FIRST_SCREENS.includes(e));
  if (rest.length === 0 || allDone(first, await readSyncStates(ctx.db, first))) return lanes(entities, (e) => pullEntity(ctx, e));

  // The rest starts as soon as the first screens' last pages are downloaded (their writes may
  // still run): the link is theirs until then, and IndexedDB never waits for a first request.
  let waiting = first.length;
  let allFetched!: () => void;
  const fetched = new Promise<void>((resolve) => (allFetched = resolve));
  const firstRun = lanes(first, async (entity) => {
    let told = false;
    const tell = () => {
      if (told) return;
      told = true;
      if (--waiting === 0) allFetched();
    };
    try {
      return await pullEntity(ctx, entity, tell);
    } finally {
      tell();
    }
  });
  let firstOutcome: { stop: ErrorClass | null } | { error: unknown } | null = null;
  const firstSettled = firstRun.then(
    (stop) => (firstOutcome = { stop }),
    (error) => (firstOutcome = { error }),
  );
  await Promise.race([fetched, firstSettled]);
  const outcome = firstOutcome as { stop: ErrorClass | null } | { error: unknown } | null;
  const failedEarly = outcome !== null && ('error' in outcome || outcome.stop !== null);
  const restRun = failedEarly ? Promise.resolve(null) : lanes(rest, (e) => pullEntity(ctx, e));
  // Every lane of both phases ends before this returns or throws (no request outlives the cycle).
  const [a, b] = await Promise.allSettled([firstRun, restRun]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return a.value ?? b.value;
}

/**
 * S5 incremental pull of one entity: pages of `updated_date >= cursor − overlap`, each page
 * applied (rebased over pending ops) and the cursor advanced in ONE transaction, so a crash
 * between pages loses nothing and repeats nothing. The next page is fetched while the current one
 * is written (its query depends only on the current page), so the network and IndexedDB overlap.
 * `onFetchedAll` is told when no more page will be requested (the last one arrived, or none will).
 * Returns null on success, the error class otherwise ('reject' = no permission to read it).
 */
export async function pullEntity(ctx: RunnerContext, entity: EntityName, onFetchedAll?: () => void): Promise<ErrorClass | null> {
  const { db, transport, tuning } = ctx;
  const state: SyncStateRow = (await db.syncState.get(entity)) ?? {
    entity,
    cursor: null,
    last_pulled_at: null,
    last_reconciled_at: null,
  };
  const table = db.table(TABLE_OF[entity]);
  const firstPull = !state.first_done;
  // A pull from nothing into an empty table lists every row the server has: it is also a
  // reconcile (S6), so the first sync does not list every id again right after.
  const serverRows = state.cursor === null || (firstPull && state.first_rows === undefined) ? await countServerRows(table) : -1;
  const fresh = state.cursor === null && serverRows === 0;
  const projection = state.projection ? await projectionSignature(ctx, entity) : null;
  if (projection && !firstPull && unchanged(state, projection, ctx.clock.now(), tuning.reconcileMs)) {
    state.last_pulled_at = ctx.clock.now();
    await db.syncState.put(state);
    onFetchedAll?.();
    return null;
  }

  const fetchPage = (query: PageQuery) => {
    const q = query.from ? { updated_date: { $gte: query.from } } : {};
    const pending = transport.filter(entity, q, 'updated_date', tuning.pageSize, query.skip || undefined);
    pending.catch(() => {}); // awaited below; never an unhandled rejection while a write runs
    return pending;
  };
  let query: PageQuery | null = firstPage(state.cursor, tuning.overlapMs);
  let inFlight: Promise<Row[]> | null = fetchPage(query);
  if (firstPull && state.first_rows === undefined) {
    // Issue #9.5: how many rows to expect, once per first pull (persisted with its first page).
    // Asked alongside the first page, not before it: no extra round trip.
    state.first_rows = serverRows;
    state.first_total = transport.count ? await transport.count(entity).catch(() => null) : null;
    // Refused last time (e.g. before an approval): downloading now, so not done until it ends.
    state.unreadable = false;
    ctx.progress?.(entity, { ...state });
  }
  let written = 0;
  // Projection or full rows: decided by what the server sends (a coach's users, an admin's).
  let sawPartial = false;
  let sawFull = false;
  while (query && inFlight) {
    let page: Row[];
    try {
      page = await inFlight;
    } catch (error) {
      const stop = classifyError(error);
      if (stop.kind === 'reject' && written === 0) await markUnreadable(ctx, entity);
      return stop;
    }
    const next = nextPage(query, page, tuning.pageSize);
    inFlight = next ? fetchPage(next) : null;
    if (!next) onFetchedAll?.();
    const partial = page.some((r) => r.updated_date == null);
    if (page.length) {
      sawPartial ||= partial;
      sawFull ||= !partial;
    }
    const writePage = async (allTables: boolean) => {
      // Only IndexedDB work is awaited in here: awaiting a promise that already settled, before the
      // first request, can lose the transaction's zone while other pulls' transactions run.
      const changed =
        page.length === 0 ? 0 : partial ? await mergeProjection(ctx, entity, page) : await applyPulledPage(db, entity, page, { fresh, allTables });
      state.cursor = partial ? state.cursor : newestDate(state.cursor, page);
      state.last_pulled_at = ctx.clock.now();
      state.unreadable = false;
      if (firstPull) state.first_rows = (state.first_rows ?? 0) + changed;
      if (!next) {
        // The last page: the first pull (if it was one) ends in the same transaction (issue #9.5).
        state.first_done = true;
        if (fresh && state.cursor !== null) state.last_reconciled_at = ctx.clock.now();
        // A signature taken before this read, or none yet (the first read): compare next time.
        if (sawPartial) state.projection = projection ?? { newest: null, read_at: 0 };
        else if (sawFull) state.projection = null;
      }
      await db.syncState.put(state);
    };
    try {
      try {
        await inPageTables(db, entity, () => writePage(false));
      } catch (error) {
        if (!(error instanceof NeedsAllTables)) throw error;
        await inAllTables(db, () => writePage(true));
      }
    } catch (error) {
      // No request of this cycle may outlive it: let the prefetch settle before failing.
      await inFlight?.catch(() => {});
      throw error;
    }
    written++;
    ctx.progress?.(entity, { ...state });
    query = next;
  }
  return null;
}

/** Rows with a server id in the table, by key ranges around the temporary-id prefix (no scan). */
async function countServerRows(table: Table): Promise<number> {
  const [below, above] = await Promise.all([
    table.where(':id').below(TEMP_ID_PREFIX).count(),
    table.where(':id').above(`${TEMP_ID_PREFIX}\uffff`).count(),
  ]);
  return below + above;
}

/** The rows this user may read, sent only in part (no updated_date): keep what the mirror knows. */
export async function mergeProjection(ctx: RunnerContext, entity: EntityName, rows: Row[]): Promise<number> {
  const table = ctx.db.table(TABLE_OF[entity]);
  const existing = (await table.bulkGet(rows.map((r) => r.id))) as Array<Record<string, unknown> | undefined>;
  await table.bulkPut(rows.map((row, i) => ({ ...existing[i], ...row })));
  return rows.length;
}

type Signature = NonNullable<SyncStateRow['projection']>;

/**
 * Issue #11.3: a coach may read User only as id, email and full_name, so there is no cursor; but
 * it may sort users by updated_date. One small request — the id of the user updated last — shows
 * whether any user was created or edited since the last full read (it is taken before the read,
 * so a change during the read shows next time). Deleted users go with the reconcile (S6).
 */
async function projectionSignature(ctx: RunnerContext, entity: EntityName): Promise<Signature | null> {
  try {
    const newest = await ctx.transport.filter(entity, {}, '-updated_date', 1, undefined, ['id']);
    return { newest: newest[0]?.id ?? null, read_at: ctx.clock.now() };
  } catch {
    return null; // the full read below decides what the failure means
  }
}

/**
 * The same user updated last as at the last full read, and that read is recent. The one change it
 * cannot see — that same user edited again — is caught by the full read every reconcile interval.
 */
function unchanged(state: SyncStateRow, now: Signature, at: number, maxAgeMs: number): boolean {
  const last = state.projection;
  return !!last && last.newest === now.newest && at - last.read_at < maxAgeMs;
}

/** A refused pull: this user may not read the entity; it counts as done for the first sync. */
export async function markUnreadable(ctx: RunnerContext, entity: EntityName): Promise<void> {
  const { db } = ctx;
  const state = (await db.syncState.get(entity)) ?? { entity, cursor: null, last_pulled_at: null, last_reconciled_at: null };
  // A later first pull (after an approval) counts its rows again from the start.
  const next: SyncStateRow = { ...state, unreadable: true, first_rows: state.first_done ? state.first_rows : undefined, first_total: state.first_done ? state.first_total : null };
  await db.syncState.put(next);
  ctx.progress?.(entity, { ...next });
}
