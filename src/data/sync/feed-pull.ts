import type { EntityName } from '../../../shared/entities';
import { CURSOR_EXPIRED, type ChangeFeedAnswer, type FeedScope } from '../../../shared/change-feed';
import { classifyError, stopsCycle, type ErrorClass } from './classify-error';
import { allDone, readSyncStates } from './first-sync';
import { runLanes } from './lanes';
import { applyPulledPage, inAllTables } from './mirror-writes';
import { newestDate, nextPage, type PageQuery } from './pull-pages';
import { mergeProjection, pullAll } from './pull-runner';
import { isTempId } from './references';
import type { RunnerContext } from './runner-context';
import { flatKeys, keyFilters, scopeKeys, SCOPED_ORDER, splitKeys, TABLET_SCOPE_KEY, type ScopeKey, type TabletScope } from './scope';
import { evictBeyondScope, livePins, readScopeFacts } from './scope-mirror';
import { pullInScope, readChoice, storeScope } from './scoped-pull';
import { scopedState, writeScopedRows } from './scoped-rows';
import { forgetReconcile, removeVanished } from './vanished';

/**
 * Issue #24.1 (docs/design.md S17): the pull of a cycle. Once this device's first sync is done and
 * the server offers the change feed (Passage's `changeFeed`; a plain platform answers 404), "is
 * there anything new?" is ONE request from a stored cursor, its pages followed while `more`, instead
 * of one request per entity (and per scope key chunk). Each page lands in one transaction with the
 * cursor: rows through the same mirror writes as a pull (rebased over queued ops S5, lost creates
 * adopted S3, natural keys S16), deletions as S6's vanished rows (gone, or a conflict when this
 * device has edits queued), each entity's S5 cursor moved on too (so a fallback later is cheap).
 * Keys new to the scope (a site chosen, a cohort created at one) are then pulled from the start, as
 * the scoped pull does, and rows beyond the scope leave (S15).
 *
 * Without the feed, or before a first sync completes, the pull is entity by entity, as before; it is
 * preceded by a request for the feed's current cursor (taken BEFORE any row is read, so nothing
 * committed during the pull can fall between the two), stored once the pull succeeds. An expired
 * cursor (410 CURSOR_EXPIRED: older than the deletions the server keeps) means per-entity pulls and
 * a reconcile (S6) in this cycle, then a fresh cursor.
 */

/** meta key of the feed cursor: whose it is (the feed answers within the caller's permissions) and where it stands. */
export const FEED_CURSOR_KEY = 'changeFeed';

interface StoredFeedCursor {
  userId: string;
  cursor: string;
}

export interface PullResult {
  stop: ErrorClass | null;
  scope: TabletScope | null;
}

export async function pullChanges(ctx: RunnerContext, entities: readonly EntityName[]): Promise<PullResult> {
  const feed = ctx.transport.changeFeed;
  if (!feed || ctx.memo.changeFeed === 'absent' || entities.length === 0) return pullPerEntity(ctx, entities);
  const stored = await readCursor(ctx);
  if (stored && (await feedReady(ctx, entities))) {
    const followed = await followFeed(ctx, entities, stored);
    if (followed !== 'fallback') return followed;
  }
  if (ctx.memo.changeFeed === 'absent') return pullPerEntity(ctx, entities);
  let fresh: string | null = null;
  try {
    const answer = await feed.call(ctx.transport, { cursor: null });
    if (answer === null) ctx.memo.changeFeed = 'absent';
    else fresh = answer.cursor;
  } catch (error) {
    const stop = classifyError(error);
    if (stopsCycle(stop)) return { stop, scope: null };
  }
  const pulled = await pullPerEntity(ctx, entities);
  if (!pulled.stop && fresh !== null && (await feedReady(ctx, entities))) {
    await ctx.db.meta.put({ key: FEED_CURSOR_KEY, value: { userId: ctx.userId, cursor: fresh } satisfies StoredFeedCursor });
  }
  return pulled;
}

/** Entity by entity, as before the feed: within the tablet's scope when it has one (issue #22). */
function pullPerEntity(ctx: RunnerContext, entities: readonly EntityName[]): Promise<PullResult> {
  return ctx.scope ? pullInScope(ctx, entities) : pullAll(ctx, [...entities]).then((stop) => ({ stop, scope: null }));
}

async function readCursor(ctx: RunnerContext): Promise<StoredFeedCursor | null> {
  const value = (await ctx.db.meta.get(FEED_CURSOR_KEY))?.value as StoredFeedCursor | undefined;
  return value && value.userId === ctx.userId && typeof value.cursor === 'string' ? value : null;
}

/**
 * The feed replaces the incremental pulls only: every entity has finished its first pull and is
 * readable (one refused before, then allowed, needs its first pull), and a tablet holding every
 * site has no entity still pulled by scope keys (leaving site scope pulls those entities afresh).
 */
async function feedReady(ctx: RunnerContext, entities: readonly EntityName[]): Promise<boolean> {
  const states = await readSyncStates(ctx.db, entities);
  if (!allDone(entities, states) || entities.some((e) => states.get(e)?.unreadable)) return false;
  if (ctx.scope && (await scopeRequest(ctx)) === null) return !entities.some((e) => states.get(e)?.scope_keys != null);
  return true;
}

/** The tablet's scope as the feed takes it (scopePull's shape); null: every row (no scope, or every site held). */
async function scopeRequest(ctx: RunnerContext): Promise<FeedScope | null> {
  if (!ctx.scope) return null;
  const choice = await readChoice(ctx);
  if (ctx.scope.everySite && !choice?.removed.length) return null;
  const pins = (await livePins(ctx.db, ctx.clock.now())).filter((p) => !isTempId(p.id));
  const ids = (entity: EntityName) => [...new Set(pins.filter((p) => p.entity === entity).map((p) => p.id))];
  return { added: choice?.added ?? [], removed: choice?.removed ?? [], pins: { Participant: ids('Participant'), Cohort: ids('Cohort') } };
}

async function followFeed(ctx: RunnerContext, entities: readonly EntityName[], stored: StoredFeedCursor): Promise<PullResult | 'fallback'> {
  const feed = ctx.transport.changeFeed!;
  const scope = await scopeRequest(ctx);
  let cursor = stored.cursor;
  let derived: ChangeFeedAnswer['scope'] | null = null;
  const touched = new Set<string>();
  for (;;) {
    let answer: ChangeFeedAnswer | null;
    try {
      answer = await feed.call(ctx.transport, { cursor, scope });
    } catch (error) {
      const stop = classifyError(error);
      if (stop.kind !== 'reject') return { stop, scope: null };
      // 410: the server no longer keeps the deletions since this cursor; any other refusal: the
      // per-entity pull meets it again and records it. Either way this cursor is done with.
      await ctx.db.meta.delete(FEED_CURSOR_KEY);
      if (stop.status === 410 || stop.code === CURSOR_EXPIRED) await forgetReconcile(ctx.db, [...entities]);
      return 'fallback';
    }
    if (answer === null) {
      ctx.memo.changeFeed = 'absent';
      return 'fallback';
    }
    await applyFeedPage(ctx, entities, answer);
    for (const entity of Object.keys(answer.changes)) touched.add(entity);
    if (answer.scope) derived = answer.scope;
    cursor = answer.cursor;
    if (!answer.more) break;
  }
  if (!ctx.scope) return { stop: null, scope: null };
  const now = ctx.clock.now();
  if (scope === null) {
    // Every site: the scope is every known site, derived again when sites changed.
    const kept = (await ctx.db.meta.get(TABLET_SCOPE_KEY))?.value as TabletScope | undefined;
    const all = kept?.all && kept.userId === ctx.userId && !touched.has('Site') ? kept : await storeScope(ctx, [], await readChoice(ctx), entities.includes('Site'));
    await evictBeyondScope(ctx.db, all, now);
    return { stop: null, scope: all };
  }
  const kept = (await ctx.db.meta.get(TABLET_SCOPE_KEY))?.value as TabletScope | undefined;
  const held: TabletScope | undefined = derived
    ? { userId: ctx.userId, all: false, siteIds: derived.siteIds, defaultSiteIds: derived.defaultSiteIds, derivedAt: now }
    : kept;
  if (!held) return { stop: null, scope: null };
  await ctx.db.meta.put({ key: TABLET_SCOPE_KEY, value: held });
  await evictBeyondScope(ctx.db, held, now);
  return { stop: await pullGrownKeys(ctx, entities, held), scope: held };
}

/**
 * One answer's page into the mirror and the cursor after it, in one transaction (S1, S2): a crash
 * half way repeats the page, never skips it. Rows a coach reads only in part (users) are merged.
 */
async function applyFeedPage(ctx: RunnerContext, entities: readonly EntityName[], answer: ChangeFeedAnswer): Promise<void> {
  const { db } = ctx;
  const now = ctx.clock.now();
  await inAllTables(db, async () => {
    for (const entity of entities) {
      const part = answer.changes[entity];
      if (!part) continue;
      const full = part.rows.filter((r) => r.updated_date != null);
      const partial = part.rows.filter((r) => r.updated_date == null);
      if (full.length) await applyPulledPage(db, entity, full, { allTables: true });
      if (partial.length) await mergeProjection(ctx, entity, partial);
      for (const id of part.deleted) await removeVanished(db, entity, id, now, { reconcile: false });
      const state = await db.syncState.get(entity);
      if (state?.first_done && full.length) await db.syncState.put({ ...state, cursor: newestDate(state.cursor, full), last_pulled_at: now });
    }
    await db.meta.put({ key: FEED_CURSOR_KEY, value: { userId: ctx.userId, cursor: answer.cursor } satisfies StoredFeedCursor });
  });
}

const STAGES: EntityName[][] = [['Cohort'], ['Enrollment', 'Session'], ['Participant'], ['Outcome', 'Attendance']];

/**
 * The feed brings what changed; a key new to the scope (a cohort created at a site in scope, a
 * participant enrolled in it, a site chosen) brings rows that did not change. Stage by stage, as
 * the scoped pull (each entity's keys come from the stage before), keys the entity's state does not
 * cover yet are pulled from the start; the covered keys become the current ones.
 */
async function pullGrownKeys(ctx: RunnerContext, entities: readonly EntityName[], scope: TabletScope): Promise<ErrorClass | null> {
  for (const stage of STAGES) {
    const now = stage.filter((e) => entities.includes(e) && SCOPED_ORDER.includes(e));
    if (now.length === 0) continue;
    const facts = await readScopeFacts(ctx.db, scope, ctx.clock.now());
    const stop = await runLanes(now, ctx.tuning.concurrency, (e) => pullAddedKeys(ctx, e, scopeKeys(e, facts)), stopsCycle);
    if (stop) return stop;
  }
  return null;
}

async function pullAddedKeys(ctx: RunnerContext, entity: EntityName, keys: ScopeKey[]): Promise<ErrorClass | null> {
  const { tuning } = ctx;
  const state = await scopedState(ctx, entity);
  const flat = flatKeys(keys);
  const { added } = splitKeys(keys, state.scope_keys ?? null);
  for (const base of keyFilters(added)) {
    let query: PageQuery | null = { from: null, skip: 0 };
    while (query) {
      let page;
      try {
        page = await ctx.transport.filter(entity, base, 'updated_date', tuning.pageSize, query.skip || undefined);
      } catch (error) {
        return classifyError(error);
      }
      await writeScopedRows(ctx, state, page, false);
      query = nextPage(query, page, tuning.pageSize);
    }
  }
  const same = state.scope_keys != null && state.scope_keys.length === flat.length && state.scope_keys.every((k, i) => k === flat[i]);
  if (!same) await ctx.db.syncState.put({ ...(await scopedState(ctx, entity)), scope_keys: flat });
  return null;
}
