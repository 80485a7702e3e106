/**
 * S5 paging, pure. Rows come sorted by updated_date with ties broken by id (server/store/types),
 * and updated_date only grows per entity, so "updated_date >= T, skip the rows already taken at
 * exactly T" is a stable key: a page never repeats or skips a row, even when thousands share
 * one timestamp.
 */
export interface PageQuery {
  /** Inclusive lower bound on updated_date, or null for everything. */
  from: string | null;
  skip: number;
}

/** First page: back off the cursor by the overlap, because a write with an earlier timestamp can
 * commit after a later one was read (two server instances, clock granularity). */
export function firstPage(cursor: string | null, overlapMs: number): PageQuery {
  if (!cursor) return { from: null, skip: 0 };
  const t = Date.parse(cursor);
  return { from: Number.isNaN(t) ? cursor : new Date(t - overlapMs).toISOString(), skip: 0 };
}

/** The query after a full page, or null when this page was the last. */
export function nextPage(prev: PageQuery, page: ReadonlyArray<Record<string, unknown>>, pageSize: number): PageQuery | null {
  if (page.length < pageSize) return null;
  const last = page[page.length - 1].updated_date;
  // A projection without updated_date (e.g. a coach's view of users): plain offset paging.
  if (typeof last !== 'string') return { from: prev.from, skip: prev.skip + page.length };
  const atLast = page.filter((r) => r.updated_date === last).length;
  if (last === prev.from) return { from: prev.from, skip: prev.skip + page.length };
  return { from: last, skip: atLast };
}

/** Newest updated_date of a page (ISO strings of one format compare as text). */
export function newestDate(cursor: string | null, page: ReadonlyArray<Record<string, unknown>>): string | null {
  let best = cursor;
  for (const r of page) if (typeof r.updated_date === 'string' && (best === null || r.updated_date > best)) best = r.updated_date;
  return best;
}
