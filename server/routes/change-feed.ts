/**
 * `changeFeed` (issue #24.1, docs/design.md S17): every change the caller may see since a cursor,
 * across all entities, in commit order, paged — one request where the plain platform API needs one
 * per entity. An optional extension, like scopePull: a platform without it answers 404 and the
 * tablet pulls entity by entity.
 *
 * `{cursor, scope?, limit?}` → `{changes: {<entity>: {rows, deleted}}, cursor, more, scope?}`
 * (shared/change-feed.ts). The rows are filtered as a list is (the permission table: a coach reads
 * users as id, email and full name, approved ones only) and, when the tablet sends its scope, by
 * the scope rules scopePull uses (shared/scope-rules.ts): rows of scoped entities outside the
 * scope's keys are not sent. Deletions come as ids of any entity the caller may read (an id tells
 * nothing more). A user a coach may no longer list (disabled, access revoked) comes as deleted.
 * Storage and commit order: server/store/feed-sql.ts.
 */
import type { Context } from 'hono';
import {
  CURSOR_EXPIRED,
  FEED_DEFAULT_LIMIT,
  FEED_MAX_LIMIT,
  type ChangeFeedAnswer,
  type FeedScope,
} from '../../shared/change-feed';
import { ENTITY_NAMES, type EntityName } from '../../shared/entities';
import { matchesKeys, scopeKeys, SCOPED_ORDER, type ScopeFacts, type ScopeKey } from '../../shared/scope-rules';
import { HttpError } from '../errors';
import type { FeedPosition } from '../store/types';
import { authorize, type ServerContext } from './context';
import { listsUser, project, visibleProjection } from './entity-guards';
import { listAll, parseChoice, serverScope } from './scope-pull';

/** Tombstones are kept this long; a tablet away longer reconciles (S6) once. */
export const FEED_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** How often a server instance prunes old tombstones (on a feed request, at most this often). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const lastPrune = new WeakMap<ServerContext, number>();

const expired = (why: string) => new HttpError(410, CURSOR_EXPIRED, `${why} Pull entity by entity and start again from a new cursor.`);

interface Cursor extends FeedPosition {
  epoch: string;
}

/** `1.<epoch>.<txid>.<seq>`: opaque to the tablet; the epoch names this database's feed. */
export function encodeFeedCursor(epoch: string, at: FeedPosition): string {
  return `1.${epoch}.${at.txid}.${at.seq}`;
}

function decodeFeedCursor(raw: string): Cursor {
  const m = /^1\.([0-9a-f-]{36})\.(\d{1,20})\.(\d{1,20})$/.exec(raw);
  if (!m) throw expired('This cursor is not one this server issued.');
  return { epoch: m[1], txid: m[2], seq: m[3] };
}

export async function changeFeed(ctx: ServerContext, c: Context, body: Record<string, unknown>): Promise<ChangeFeedAnswer> {
  // An account that may read records at all (a pending one is refused as a list would be).
  const { user } = await authorize(ctx, c, 'read', 'Participant');
  const request = parseRequest(body);
  const visible = new Map<string, readonly string[] | undefined>();
  for (const entity of ENTITY_NAMES) {
    try {
      visible.set(entity, (await authorize(ctx, c, 'read', entity)).decision.visibleFields);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 403) throw error;
    }
  }
  await pruneNowAndThen(ctx);

  const after = request.cursor === null ? null : decodeFeedCursor(request.cursor);
  const read = await ctx.store.readChanges(ctx.appId, after, request.limit);
  if (after) {
    if (after.epoch !== read.epoch) throw expired('This cursor is from another database.');
    if (BigInt(after.txid) <= BigInt(read.horizon)) throw expired('Deletions this old are no longer kept.');
    if (BigInt(after.txid) > BigInt(read.xmin)) throw expired('This cursor is ahead of this database (restored from a backup?).');
  }

  const scope = request.scope ? await serverScope(ctx, user, request.scope) : null;
  let keysOf: ((entity: EntityName) => ScopeKey[]) | null = null;
  const changes: ChangeFeedAnswer['changes'] = {};
  const entry = (entity: EntityName) => (changes[entity] ??= { rows: [], deleted: [] });
  for (const change of read.changes) {
    const entity = change.entity as EntityName;
    if (!visible.has(entity)) continue;
    const fields = visible.get(entity);
    const record = change.record;
    if (!record || (entity === 'User' && !listsUser(fields, record))) {
      entry(entity).deleted.push(change.id);
      continue;
    }
    if (scope && SCOPED_ORDER.includes(entity)) {
      keysOf ??= await scopeKeysOf(ctx, scope.siteIds, request.scope!, enrolledCandidates(read.changes));
      if (!matchesKeys(record, keysOf(entity))) continue;
    }
    entry(entity).rows.push(fields ? project(record, visibleProjection(undefined, fields)) : record);
  }
  return {
    changes,
    cursor: encodeFeedCursor(read.epoch, read.next),
    more: read.more,
    ...(scope ? { scope: { siteIds: scope.siteIds, defaultSiteIds: scope.defaultSiteIds } } : {}),
  };
}

/**
 * Each scoped entity's keys from this server's rows, as scopePull derives them (only the ids and
 * links the keys need are read): cohorts of the scope's sites and pinned ones → their enrollments
 * and a pinned participant's → the participants of those → outcomes, sessions, attendance.
 */
/**
 * The participants whose enrollments decide whether a change of this page is in scope: changed
 * participants and the participants of changed outcomes (S15: a participant is held through an
 * enrollment in a cohort of the scope's sites, an outcome through its participant). The other
 * scoped entities are decided by their cohort, site or a pin, without enrollments.
 */
function enrolledCandidates(changes: ReadonlyArray<{ entity: string; id: string; record: Record<string, unknown> | null }>): string[] {
  const ids = new Set<string>();
  for (const change of changes) {
    if (change.entity === 'Participant') ids.add(change.id);
    else if (change.entity === 'Outcome' && typeof change.record?.participant_id === 'string') ids.add(change.record.participant_id);
  }
  return [...ids];
}

/**
 * S15's keys for the changes of one page. Enrollments are read only for `candidates` (the page's
 * participants): an administrator's scope is every site, and reading all its enrollments (30,030
 * in the bench's academy) for ten changed participants made a feed request cost ~100 ms.
 */
async function scopeKeysOf(ctx: ServerContext, siteIds: string[], choice: FeedScope, candidates: string[]): Promise<(entity: EntityName) => ScopeKey[]> {
  const facts: ScopeFacts = {
    siteIds,
    cohorts: [],
    enrollments: [],
    participantIds: [],
    pins: [
      ...choice.pins.Participant.map((id) => ({ entity: 'Participant' as const, id, reason: 'opened' as const })),
      ...choice.pins.Cohort.map((id) => ({ entity: 'Cohort' as const, id, reason: 'opened' as const })),
    ],
  };
  const matching = async (entity: EntityName, fields: string[], only?: Record<string, unknown>) => {
    const any = scopeKeys(entity, facts)
      .filter((k) => k.ids.length > 0)
      .map((k) => ({ [k.field]: { $in: k.ids } }));
    if (any.length === 0) return [];
    const q = any.length === 1 ? any[0] : { $or: any };
    return listAll(ctx, entity, only ? { $and: [q, only] } : q, fields);
  };
  facts.cohorts = (await matching('Cohort', ['site_id'])).map((r) => ({ id: r.id, site_id: r.site_id as string | null }));
  const enrollments = candidates.length ? await matching('Enrollment', ['participant_id', 'cohort_id'], { participant_id: { $in: candidates } }) : [];
  facts.enrollments = enrollments.map((r) => ({
    id: r.id,
    participant_id: r.participant_id as string,
    cohort_id: r.cohort_id as string,
  }));
  facts.participantIds = scopeKeys('Participant', facts).flatMap((k) => k.ids);
  const keys = new Map(SCOPED_ORDER.map((e) => [e, scopeKeys(e, facts)]));
  return (entity) => keys.get(entity) ?? [];
}

/** Old tombstones go now and then (at most hourly per server instance), on a feed request. */
async function pruneNowAndThen(ctx: ServerContext): Promise<void> {
  const now = ctx.now().getTime();
  const last = lastPrune.get(ctx);
  if (last !== undefined && now - last < PRUNE_EVERY_MS && now >= last) return;
  lastPrune.set(ctx, now);
  await ctx.store.pruneChanges(ctx.appId, FEED_RETENTION_MS);
}

function parseRequest(body: Record<string, unknown>): { cursor: string | null; scope: FeedScope | null; limit: number } {
  const bad = (what: string) => new HttpError(400, 'BAD_REQUEST', what);
  const cursor = body.cursor ?? null;
  if (cursor !== null && (typeof cursor !== 'string' || cursor.length > 200)) throw bad('cursor must be the text of an earlier answer, or null');
  const rawScope = body.scope ?? null;
  if (rawScope !== null && (typeof rawScope !== 'object' || Array.isArray(rawScope))) throw bad('scope must be an object or null');
  const limit = body.limit ?? FEED_DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > FEED_MAX_LIMIT) throw bad(`limit must be a whole number from 1 to ${FEED_MAX_LIMIT}`);
  return { cursor, scope: rawScope === null ? null : parseChoice(rawScope as Record<string, unknown>), limit };
}
