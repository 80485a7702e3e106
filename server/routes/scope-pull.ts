/**
 * `scopePull` (issue #22.5): the optional fast path of a tablet that holds its user's sites. One
 * request answers for the whole scope — cohorts of the scope's sites, their enrollments and
 * sessions, the participants of those enrollments and their outcomes, plus pinned records —
 * derived with the same rules the tablet uses (shared/scope-rules.ts) from this server's rows.
 * On the plain platform API the tablet needs a filtered, chunked request per entity and stage.
 *
 * Each entity's high-water mark (its newest updated_date) is read before any of its rows: a row
 * written meanwhile has a later updated_date, so the tablet's next pull from that cursor sees it.
 */
import type { Context } from 'hono';
import type { EntityName } from '../../shared/entities';
import {
  deriveScope,
  flatKeys,
  keySets,
  matchesKeys,
  scopeKeys,
  SCOPE_PULL_MAX_ROWS,
  SCOPED_ORDER,
  splitKeys,
  type ScopeFacts,
  type ScopeKey,
  type ScopePullAnswer,
  type ScopePullRequest,
  type TabletScope,
} from '../../shared/scope-rules';
import { HttpError } from '../errors';
import type { EntityRecord, Filter } from '../store/types';
import { authorize, type ServerContext } from './context';

/** Pins and choices beyond this many ids are not a tablet's (a tablet pins a handful). */
const MAX_IDS = 20_000;
const PAGE = 5000;

export async function scopePull(ctx: ServerContext, c: Context, body: Record<string, unknown>): Promise<ScopePullAnswer> {
  for (const entity of ['Site', ...SCOPED_ORDER]) await authorize(ctx, c, 'read', entity);
  const { user } = await authorize(ctx, c, 'read', 'Cohort');
  const request = parseRequest(body);
  const wanted = SCOPED_ORDER.filter((e) => Object.hasOwn(request.state, e));

  const highWater = new Map<EntityName, string | null>();
  for (const entity of wanted) {
    const [newest] = await ctx.store.list(ctx.appId, entity, { sort: '-updated_date', limit: 1, fields: ['updated_date'] });
    highWater.set(entity, typeof newest?.updated_date === 'string' ? newest.updated_date : null);
  }

  const scope = await serverScope(ctx, user, request);

  const facts: ScopeFacts = {
    siteIds: scope.siteIds,
    cohorts: [],
    enrollments: [],
    participantIds: [],
    pins: [
      ...request.pins.Participant.map((id) => ({ entity: 'Participant' as const, id, reason: 'opened' as const })),
      ...request.pins.Cohort.map((id) => ({ entity: 'Cohort' as const, id, reason: 'opened' as const })),
    ],
  };
  const answer: ScopePullAnswer = { scope: { siteIds: scope.siteIds, defaultSiteIds: scope.defaultSiteIds }, entities: {} };
  let total = 0;
  for (const entity of SCOPED_ORDER) {
    const keys = scopeKeys(entity, facts);
    const rows = await rowsOf(ctx, entity, keys);
    if (entity === 'Cohort') facts.cohorts = rows.map((r) => ({ id: r.id, site_id: r.site_id as string | null }));
    if (entity === 'Enrollment') facts.enrollments = rows.map((r) => ({ id: r.id, participant_id: r.participant_id as string, cohort_id: r.cohort_id as string }));
    if (entity === 'Participant') facts.participantIds = rows.map((r) => r.id);
    const state = request.state[entity];
    if (!state) continue;
    const { added } = splitKeys(keys, state.covered);
    const sets = keySets(added);
    const since = state.since;
    const send = rows.filter((r) => since === null || matchesKeys(r, added, sets) || String(r.updated_date) >= since);
    total += send.length;
    if (total > SCOPE_PULL_MAX_ROWS) {
      throw new HttpError(413, 'SCOPE_TOO_LARGE', `More than ${SCOPE_PULL_MAX_ROWS} rows: pull this scope entity by entity.`);
    }
    answer.entities[entity] = { rows: send, high_water: highWater.get(entity) ?? null, keys: flatKeys(keys) };
  }
  return answer;
}

/**
 * The scope the server derives for this user and choice, from its own rows with the tablet's rules
 * (shared/scope-rules.ts): scopePull and the change feed (change-feed.ts) answer within it.
 */
export async function serverScope(ctx: ServerContext, user: EntityRecord, choice: { added: string[]; removed: string[] }): Promise<TabletScope> {
  const email = String(user.email ?? '');
  const own = await listAll(ctx, 'Cohort', { $or: [{ lead_coach_email: email }, { support_coach_emails: email }] }, ['site_id']);
  const sites = await listAll(ctx, 'Site', undefined, ['id']);
  return deriveScope({
    owner: { email, everySite: user.role === 'admin' },
    ownCohortSites: own.map((r) => r.site_id).filter((s): s is string => typeof s === 'string'),
    knownSites: sites.map((s) => s.id),
    choice: { userId: user.id, added: choice.added, removed: choice.removed },
    userId: user.id,
    now: ctx.now().getTime(),
  });
}

/** Every row matching any key (keyset pages by id, no URL limit here). */
async function rowsOf(ctx: ServerContext, entity: EntityName, keys: ScopeKey[]): Promise<EntityRecord[]> {
  const any = keys.filter((k) => k.ids.length > 0).map((k) => ({ [k.field]: { $in: k.ids } }));
  if (any.length === 0) return [];
  return listAll(ctx, entity, any.length === 1 ? any[0] : { $or: any });
}

export async function listAll(ctx: ServerContext, entity: string, q: Filter | undefined, fields?: string[]): Promise<EntityRecord[]> {
  const rows: EntityRecord[] = [];
  let after: string | null = null;
  for (;;) {
    const page: EntityRecord[] = await ctx.store.list(ctx.appId, entity, {
      q: after === null ? q : q ? { $and: [q, { id: { $gt: after } }] } : { id: { $gt: after } },
      sort: 'id',
      limit: PAGE,
      fields,
    });
    rows.push(...page);
    if (page.length < PAGE) return rows;
    if (rows.length > SCOPE_PULL_MAX_ROWS) throw new HttpError(413, 'SCOPE_TOO_LARGE', `More than ${SCOPE_PULL_MAX_ROWS} rows: pull this scope entity by entity.`);
    after = page[page.length - 1].id;
  }
}

const bad = (what: string) => new HttpError(400, 'BAD_REQUEST', what);
const ids = (value: unknown, name: string): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_IDS || value.some((v) => typeof v !== 'string' || v.length > 200)) throw bad(`${name} must be a list of ids`);
  return value as string[];
};

/** A tablet's choice of sites and its pins, as scopePull and the change feed take them. */
export function parseChoice(body: Record<string, unknown>): Pick<ScopePullRequest, 'added' | 'removed' | 'pins'> {
  const pins = (body.pins ?? {}) as Record<string, unknown>;
  if (typeof pins !== 'object' || pins === null || Array.isArray(pins)) throw bad('pins must be an object');
  return {
    added: ids(body.added, 'added'),
    removed: ids(body.removed, 'removed'),
    pins: { Participant: ids(pins.Participant, 'pins.Participant'), Cohort: ids(pins.Cohort, 'pins.Cohort') },
  };
}

function parseRequest(body: Record<string, unknown>): ScopePullRequest {
  const choice = parseChoice(body);
  const rawState = body.state;
  if (typeof rawState !== 'object' || rawState === null || Array.isArray(rawState)) throw bad('state must be an object with an entry per entity');
  const state: ScopePullRequest['state'] = {};
  for (const [entity, value] of Object.entries(rawState as Record<string, unknown>)) {
    if (!SCOPED_ORDER.includes(entity as EntityName)) throw bad(`${entity} is not held by site`);
    const v = value as { since?: unknown; covered?: unknown } | null;
    if (typeof v !== 'object' || v === null) throw bad(`state.${entity} must be an object`);
    if (v.since !== null && typeof v.since !== 'string') throw bad(`state.${entity}.since must be a date or null`);
    const covered = v.covered === null ? null : ids(v.covered, `state.${entity}.covered`);
    state[entity as EntityName] = { since: v.since, covered };
  }
  return { ...choice, state };
}
