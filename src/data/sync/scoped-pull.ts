import type { EntityName } from '../../../shared/entities';
import { classifyError, stopsCycle, type ErrorClass } from './classify-error';
import { runLanes } from './lanes';
import { pullAll, pullEntity } from './pull-runner';
import { pullByKeys } from './scoped-rows';
import { pullScopeFast } from './scope-fast-pull';
import { TEMP_ID_PREFIX } from './references';
import type { RunnerContext } from './runner-context';
import {
  deriveScope,
  scopeKeys,
  SCOPED_ORDER,
  SITE_CHOICE_KEY,
  TABLET_SCOPE_KEY,
  type ScopeKey,
  type SiteChoice,
  type TabletScope,
} from './scope';
import { evictBeyondScope, readScopeFacts } from './scope-mirror';

/**
 * Issue #22: the pull of a tablet that holds its user's sites. In stages, because each scoped
 * entity's keys come from what the one before brought (sync/scope.ts):
 * 0. programs, sites and users (whole), the sites of the user's own cohorts, and every scoped
 *    entity's high-water mark, in parallel lanes;
 * 1. the scope is derived and stored (the screens say what they count), rows beyond it leave;
 * 2. cohorts of the scope's sites → their enrollments and sessions → the participants of those
 *    enrollments → their outcomes. What a first screen needs comes before outcomes.
 * When the server offers the whole scope in one request (scope-fast-pull.ts), stages 0–2 are that
 * request beside the pulls of programs, sites and users.
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

  const fast = await pullScopeFast(ctx, entities, choice);
  if (fast !== 'unavailable') return fast;

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
  const stages: EntityName[][] = [['Cohort'], ['Enrollment', 'Session'], ['Participant'], ['Outcome', 'Attendance']];
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

export async function readChoice(ctx: RunnerContext): Promise<SiteChoice | null> {
  const row = await ctx.db.meta.get(SITE_CHOICE_KEY);
  const choice = row?.value as SiteChoice | undefined;
  return choice && choice.userId === ctx.userId ? choice : null;
}

export async function storeScope(ctx: RunnerContext, ownSites: string[], choice: SiteChoice | null, sitesPulled: boolean): Promise<TabletScope> {
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
 * written after this answer has a later updated_date (docs/design.md: it only grows), so after all the
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
