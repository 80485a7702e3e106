/**
 * `participantSearch` (issue #22.2): the search of participants beyond a tablet's sites, sent in a
 * POST body so the words a coach typed (names, emails, UIDs) never stand in a request URL, where
 * proxies and access logs keep them. The same reading as `GET /entities/Participant?q=…&sort=…&limit=…`
 * (the plain platform's way, which the tablet falls back to when this function is absent): the
 * permission table, the filter language and its bounds, at most SEARCH_LIMIT rows.
 */
import type { Context } from 'hono';
import { HttpError } from '../errors';
import { parseSort, touchedFields } from '../http/list-params';
import type { Filter } from '../store/types';
import { authorize, type ServerContext } from './context';
import { checkTouched, visibleProjection } from './entity-guards';

const SEARCH_LIMIT = 50;

export async function participantSearch(ctx: ServerContext, c: Context, body: Record<string, unknown>): Promise<unknown[]> {
  const { decision } = await authorize(ctx, c, 'read', 'Participant');
  const q = body.q;
  if (typeof q !== 'object' || q === null || Array.isArray(q)) throw new HttpError(400, 'BAD_REQUEST', 'q must be a filter object');
  if (body.sort !== undefined && typeof body.sort !== 'string') throw new HttpError(400, 'BAD_REQUEST', 'sort must be text');
  const sort = parseSort(body.sort as string | undefined);
  const limit = body.limit === undefined ? SEARCH_LIMIT : Number(body.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT) throw new HttpError(400, 'BAD_REQUEST', `limit must be 1 to ${SEARCH_LIMIT}`);
  checkTouched(touchedFields(q as Filter, sort), decision.queryFields);
  return ctx.store.list(ctx.appId, 'Participant', { q: q as Filter, sort, limit, fields: visibleProjection(undefined, decision.visibleFields) });
}
