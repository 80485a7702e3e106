/**
 * Issue #24 (docs/design.md S17): the change feed, an optional extension of the platform API that
 * Passage's server offers as the backend function `changeFeed`. Given a cursor, it answers every
 * change the caller may see since then, across all entities, in commit order: the current row of
 * each record written, the id of each record deleted (a tombstone), and a new cursor. A platform
 * without it answers 404 and the tablet pulls entity by entity, as it always did.
 *
 * Cursor semantics: an opaque string. Everything committed before it has been answered (or was
 * in the tablet's first sync); a change committed later, however early its transaction began, comes
 * after it. `null` asks only for the current cursor (no rows): the tablet takes one before its
 * per-entity pull and follows the feed from it afterwards. A cursor the server cannot serve (older
 * than the tombstones it keeps, from another database, malformed) is answered 410 CURSOR_EXPIRED:
 * the tablet pulls entity by entity, reconciles (S6) and starts again from a fresh cursor.
 */
import type { EntityName } from './entities';

export const CHANGE_FEED_FUNCTION = 'changeFeed';
/** The error code of a cursor the server can no longer serve (HTTP 410). */
export const CURSOR_EXPIRED = 'CURSOR_EXPIRED';
/** Changes per page unless the request asks for fewer (or more, up to FEED_MAX_LIMIT). */
export const FEED_DEFAULT_LIMIT = 1000;
export const FEED_MAX_LIMIT = 5000;

/** The tablet's scope, in the shape `scopePull` takes: its choice of sites and its pins. */
export interface FeedScope {
  added: string[];
  removed: string[];
  pins: { Participant: string[]; Cohort: string[] };
}

export interface ChangeFeedRequest {
  cursor: string | null;
  /** Only rows within this scope (shared/scope-rules.ts); null or absent: every row the caller may read. */
  scope?: FeedScope | null;
  limit?: number;
}

export interface ChangeFeedAnswer {
  /** Per entity with changes on this page: current rows (in commit order) and deleted ids. */
  changes: Partial<Record<EntityName, { rows: Array<Record<string, unknown> & { id: string }>; deleted: string[] }>>;
  /** Where the next request starts. */
  cursor: string;
  /** More changes wait: ask again at once with `cursor`. */
  more: boolean;
  /** The scope the server derived from the request's (when it had one), as `scopePull` answers it. */
  scope?: { siteIds: string[]; defaultSiteIds: string[] };
}
