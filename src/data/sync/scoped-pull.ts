import { TABLE_OF, type SyncStateRow } from '../db';
import type { EntityName } from '../../../shared/entities';
import { classifyError, stopsCycle, type ErrorClass } from './classify-error';
import { runLanes } from './lanes';
import { applyPulledPage, inAllTables, inPageTables, NeedsAllTables } from './mirror-writes';
import { firstPage, nextPage, type PageQuery } from './pull-pages';
import { markUnreadable, pullAll, pullEntity } from './pull-runner';
import { TEMP_ID_PREFIX } from './references';
import type { RunnerContext } from './runner-context';
import {
  deriveScope,
  flatKeys,
  keyFilters,
  scopeKeys,
  SCOPED_ORDER,
  SITE_CHOICE_KEY,
  splitKeys,
  TABLET_SCOPE_KEY,
  type ScopeKey,
  type SiteChoice,
  type TabletScope,
} from './scope';
import { evictBeyondScope, readScopeFacts } from './scope-mirror';
import type { Row } from './types';

/**
 * Issue #22: the pull of a tablet that holds its user's sites. In stages, because each scoped
 * entity's keys come from what the one before brought (sync/scope.ts):
 * 0. programs, sites and users (whole), the sites of the user's own cohorts, and every scoped
 *    entity's high-water mark, in parallel lanes;
 * 1. the scope is derived and stored (the screens say what they count), rows beyond it leave;
 * 2. cohorts of the scope's sites → their enrollments and sessions → the participants of those
 *    enrollments → their outcomes. What a first screen needs comes before outcomes.
 * An administrator who keeps every site pulls as before (pullAll, unfiltered).
 * Returns the stop that ended it early (or null) and the scope, for the reconcile (S6).
 */
export async function pullInScope(ctx: RunnerContext, entities: readonly EntityName[]): Promise<{ stop: ErrorClass | null; scope: TabletScope | null }> {
  const owner = ctx.scope!;
  if (entities.length === 0) return { stop: null, scope: null }; // an account awaiting approval reads nothing
  const choice = await readChoice(ctx);
  const everySite = owner.everySite && !(choice?.removed.length);
  if (everySite) {
    await forgetScopedCursors(ctx, entities);
    const stop = await pullAll(ctx, entities);
    if (stop) return { stop, scope: null };
    const scope = await storeScope(ctx, [], choice, true);
    await evictBeyondScope(ctx.db, scope, ctx.clock.now());
    return { stop: null, scope };
  }

  const scoped = SCOPED_ORDER.filter((e) => entities.includes(e));
  const whole = entities.filter((e) => !scoped.includes(e));
  const highWater = new Map<EntityName, string | null>();
  let ownSites: string[] = [];
  type Task = () => Promise<ErrorClass | null>;
  const tasks: Task[] = [
    ...whole.map((e): Task => () => pullEntity(ctx, e)),
    async () => {
      try {
        ownSites = await ownCohortSites(ctx, owner.email);
        return null;
      } catch (error) {
        const stop = classifyError(error);
        return stop.kind === 'reject' ? null : stop; // may not read cohorts: no own sites
      }
    },
    ...scoped.map((e): Task => async () => {
      try {
        highWater.set(e, await newestDate(ctx, e));
        return null;
      } catch (error) {
        return classifyError(error); // a 'reject' is met again, and recorded, by the pull itself
      }
    }),
  ];
  const stop0 = await runLanes(tasks, ctx.tuning.concurrency, (task) => task(), stopsCycle);
  if (stop0) return { stop: stop0, scope: null };
  if (scoped.length === 0) return { stop: null, scope: null };

  const scope = await storeScope(ctx, ownSites, choice, entities.includes('Site'));
  await evictBeyondScope(ctx.db, scope, ctx.clock.now());
  const stages: EntityName[][] = [['Cohort'], ['Enrollment', 'Session'], ['Participant'], ['Outcome']];
  for (const stage of stages) {
    const now = stage.filter((e) => scoped.includes(e));
    if (now.length === 0) continue;
    const facts = await readScopeFacts(ctx.db, scope, ctx.clock.now());
    const stop = await runLanes(now, ctx.tuning.concurrency, (e) => pullByKeys(ctx, e, scopeKeys(e, facts), highWater.get(e) ?? null), stopsCycle);
    if (stop) return { stop, scope };
  }
  return { stop: null, scope };
}

/** The keys of a scoped entity now (for the reconcile, S6): null when the tablet holds every site. */
export async function currentKeys(ctx: RunnerContext, scope: TabletScope | null, entity: EntityName): Promise<ScopeKey[] | null> {
  if (!scope || scope.all || !SCOPED_ORDER.includes(entity)) return null;
  return scopeKeys(entity, await readScopeFacts(ctx.db, scope, ctx.clock.now()));
}

async function readChoice(ctx: RunnerContext): Promise<SiteChoice | null> {
  const row = await ctx.db.meta.get(SITE_CHOICE_KEY);
  const choice = row?.value as SiteChoice | undefined;
  return choice && choice.userId === ctx.userId ? choice : null;
}

async function storeScope(ctx: RunnerContext, ownSites: string[], choice: SiteChoice | null, sitesPulled: boolean): Promise<TabletScope> {
  const { db } = ctx;
  const email = ctx.scope!.email.toLowerCase();
  // A cohort created here and not sent yet counts too (the server cannot know it); for the others
  // the server's answer decides: a cohort reassigned elsewhere has a stale copy here.
  const local = (await db.cohorts.where(':id').startsWith(TEMP_ID_PREFIX).toArray()).filter(
    (c) => c.lead_coach_email?.toLowerCase() === email || (c.support_coach_emails ?? []).some((e) => e?.toLowerCase() === email),
  );
  // Sites the server no longer has drop out of the scope; an engine that does not pull sites (a
  // test's narrow entity list) cannot tell, and keeps every site it was given.
  const siteRows = (await db.sites.toCollection().primaryKeys()) as string[];
  const knownSites = sitesPulled ? siteRows : [...siteRows, ...ownSites, ...local.map((c) => c.site_id), ...(choice?.added ?? [])];
  const scope = deriveScope({
    owner: ctx.scope!,
    ownCohortSites: [...ownSites, ...local.map((c) => c.site_id)],
    knownSites,
    choice,
    userId: ctx.userId,
    now: ctx.clock.now(),
  });
  await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope });
  return scope;
}

/** The sites where the user leads or supports a cohort, as the server knows them (one small request). */
async function ownCohortSites(ctx: RunnerContext, email: string): Promise<string[]> {
  const q = { $or: [{ lead_coach_email: email }, { support_coach_emails: email }] };
  const rows = await ctx.transport.filter('Cohort', q, 'id', ctx.tuning.pageSize, undefined, ['id', 'site_id']);
  return rows.map((r) => r.site_id).filter((s): s is string => typeof s === 'string');
}

/**
 * The newest updated_date of the whole entity, asked before any of its filtered pages: every row
 * written after this answer has a later updated_date (design.md: it only grows), so after all the
 * chunks' pages are in, it is a cursor that misses nothing whatever order the chunks ran in.
 */
async function newestDate(ctx: RunnerContext, entity: EntityName): Promise<string | null> {
  const rows = await ctx.transport.filter(entity, {}, '-updated_date', 1, undefined, ['updated_date']);
  const date = rows[0]?.updated_date;
  return typeof date === 'string' ? date : null;
}

/** Leaving site scope for every site: the next pulls of these entities start from nothing, unfiltered. */
async function forgetScopedCursors(ctx: RunnerContext, entities: readonly EntityName[]): Promise<void> {
  for (const entity of entities) {
    const state = await ctx.db.syncState.get(entity);
    if (state?.scope_keys == null) continue;
    await ctx.db.syncState.put({ ...state, cursor: null, scope_keys: null, projection: null });
  }
}

/**
 * S5 within the scope: what the cursor already covers is pulled from it (`updated_date >= cursor −
 * overlap`); keys new to the scope from the start. Each query is chunked (`$in`, issue #22.5) and
 * paged like pullEntity; each page is applied (rebased over queued ops, lost creates adopted) in
 * its own transaction. The cursor and the covered keys move once, after every page is in: a pull
 * cut off half way is repeated from the old cursor (rows already written are skipped as unchanged).
 */
export async function pullByKeys(ctx: RunnerContext, entity: EntityName, keys: ScopeKey[], highWater: string | null): Promise<ErrorClass | null> {
  const { db, transport, tuning } = ctx;
  const state: SyncStateRow = (await db.syncState.get(entity)) ?? { entity, cursor: null, last_pulled_at: null, last_reconciled_at: null };
  const covered = state.cursor === null ? [] : (state.scope_keys ?? null);
  const { known, added } = splitKeys(keys, covered);
  const firstPull = !state.first_done;
  const table = db.table(TABLE_OF[entity]);
  const fresh = state.cursor === null && (await table.count()) === 0;
  if (firstPull && state.first_rows === undefined) {
    state.first_rows = 0;
    state.first_total = null; // the server cannot count a scope in one request on the plain API
    state.unreadable = false;
    await db.syncState.put(state);
    ctx.progress?.(entity, { ...state });
  }
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
      const rows = page;
      const writePage = async (allTables: boolean) => {
        const changed = await applyPulledPage(db, entity, rows, { fresh, allTables });
        if (!firstPull) return;
        state.first_rows = (state.first_rows ?? 0) + changed;
        await db.syncState.put(state); // the cursor moves only at the end (see above)
      };
      if (page.length > 0) {
        try {
          await inPageTables(db, entity, () => writePage(false));
        } catch (error) {
          if (!(error instanceof NeedsAllTables)) throw error;
          await inAllTables(db, () => writePage(true));
        }
        written++;
        if (firstPull) ctx.progress?.(entity, { ...state });
      }
      query = nextPage(query, page, tuning.pageSize);
    }
    return null;
  };
  const failed = await runLanes(queries, tuning.concurrency, pullQuery, (result) => result !== null);
  if (failed) return failed;
  const cursor = highWater && (state.cursor === null || highWater > state.cursor) ? highWater : state.cursor;
  const done: SyncStateRow = {
    ...state,
    cursor,
    scope_keys: flatKeys(keys),
    last_pulled_at: ctx.clock.now(),
    unreadable: false,
    first_done: true,
    projection: null,
    // A pull of the whole scope into an empty table listed every id the scope has: it is also a
    // reconcile (S6), so the first sync does not list them all again right after.
    last_reconciled_at: fresh ? ctx.clock.now() : state.last_reconciled_at,
  };
  await db.syncState.put(done);
  ctx.progress?.(entity, { ...done });
  return null;
}
