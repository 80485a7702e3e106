import type { EntityName } from '../../../shared/entities';
import { classifyError, stopsCycle, type ErrorClass } from './classify-error';
import { runLanes } from './lanes';
import { firstPage } from './pull-pages';
import { pullEntity } from './pull-runner';
import { isTempId } from './references';
import type { RunnerContext } from './runner-context';
import { SCOPED_ORDER, TABLET_SCOPE_KEY, type ScopePullAnswer, type ScopePullRequest, type SiteChoice, type TabletScope } from './scope';
import { evictBeyondScope, livePins } from './scope-mirror';
import { finishScopedPull, pullsIntoNothing, scopedState, startFirstPull, writeScopedRows } from './scoped-rows';

/** Rows per transaction when an answer is written: a page of the plain path's size at most. */
const WRITE_BATCH = 2000;

export type FastPullResult = { stop: ErrorClass | null; scope: TabletScope | null } | 'unavailable';

/**
 * Issue #22.5's optional fast path: when the server offers `scopePull` (Passage's does; the plain
 * platform answers 404), the whole scope comes in one request, asked alongside the pulls of
 * programs, sites and users, instead of a filtered, chunked request per entity and stage. The
 * answer carries the scope the server derived with the shared rules, and per entity the rows to
 * apply, the high-water mark and the keys; they are written as the plain path writes its pages.
 * 'unavailable': the caller pulls entity by entity (no such function — remembered for this
 * engine — or a scope too large for one answer, 413).
 */
export async function pullScopeFast(ctx: RunnerContext, entities: readonly EntityName[], choice: SiteChoice | null): Promise<FastPullResult> {
  const pullScope = ctx.transport.pullScope;
  if (!pullScope || ctx.memo.scopePull === 'absent') return 'unavailable';
  const scoped = SCOPED_ORDER.filter((e) => entities.includes(e));
  const whole = entities.filter((e) => !scoped.includes(e));
  const request = await requestOf(ctx, scoped, choice);

  let answer: ScopePullAnswer | null = null;
  let unavailable = false;
  const fast = async (): Promise<ErrorClass | null> => {
    try {
      answer = await pullScope.call(ctx.transport, request);
      if (answer === null) {
        ctx.memo.scopePull = 'absent';
        unavailable = true;
      }
      return null;
    } catch (error) {
      if ((error as { status?: number })?.status === 413) {
        unavailable = true;
        return null;
      }
      return classifyError(error);
    }
  };
  const tasks = [fast, ...whole.map((e) => () => pullEntity(ctx, e))];
  const stop = await runLanes(tasks, ctx.tuning.concurrency, (task) => task(), stopsCycle);
  if (stop) return { stop, scope: null };
  if (unavailable || !answer) return 'unavailable';
  const got = answer as ScopePullAnswer;

  const scope: TabletScope = { userId: ctx.userId, all: false, siteIds: got.scope.siteIds, defaultSiteIds: got.scope.defaultSiteIds, derivedAt: ctx.clock.now() };
  await ctx.db.meta.put({ key: TABLET_SCOPE_KEY, value: scope });
  await evictBeyondScope(ctx.db, scope, ctx.clock.now());
  for (const entity of scoped) {
    const part = got.entities[entity];
    if (!part) continue;
    const state = await scopedState(ctx, entity);
    const fresh = await pullsIntoNothing(ctx, state);
    await startFirstPull(ctx, state);
    for (let i = 0; i < part.rows.length; i += WRITE_BATCH) await writeScopedRows(ctx, state, part.rows.slice(i, i + WRITE_BATCH), fresh);
    await finishScopedPull(ctx, state, part.keys, part.high_water, fresh);
  }
  return { stop: null, scope };
}

/** What the tablet tells the server: its choice, its pins, and per entity its cursor and covered keys. */
async function requestOf(ctx: RunnerContext, scoped: readonly EntityName[], choice: SiteChoice | null): Promise<ScopePullRequest> {
  const pins = (await livePins(ctx.db, ctx.clock.now())).filter((p) => !isTempId(p.id));
  const ids = (entity: EntityName) => [...new Set(pins.filter((p) => p.entity === entity).map((p) => p.id))];
  const state: ScopePullRequest['state'] = {};
  for (const entity of scoped) {
    const s = await scopedState(ctx, entity);
    state[entity] = {
      since: s.cursor === null ? null : firstPage(s.cursor, ctx.tuning.overlapMs).from,
      covered: s.cursor === null ? [] : (s.scope_keys ?? null),
    };
  }
  return { added: choice?.added ?? [], removed: choice?.removed ?? [], pins: { Participant: ids('Participant'), Cohort: ids('Cohort') }, state };
}
