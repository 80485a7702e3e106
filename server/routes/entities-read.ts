/** Entity reads: list/filter, count, v2/list (cursor pages) and get by id. */
import { Hono } from 'hono';
import { HttpError, notFound } from '../errors';
import { encodeCursor, decodeCursor, sameListing } from '../http/cursor';
import { MAX_LIMIT, parseCount, parseFields, parseFilter, parseListParams, parseSort, touchedFields } from '../http/list-params';
import { authorize, checkApp, type ServerContext } from './context';
import { checkEntity, checkId, checkTouched, project, scopeUserListing, visibleProjection } from './entity-guards';

const V2_DEFAULT_LIMIT = 100;

export function entityReadRoutes(ctx: ServerContext) {
  const r = new Hono();

  r.get('/:appId/entities/:entity/count', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const entity = checkEntity(c.req.param('entity'));
    const { decision } = await authorize(ctx, c, 'read', entity);
    const q = parseFilter(c.req.query('q'));
    checkTouched(touchedFields(q, undefined), decision.queryFields);
    return c.json({ count: await ctx.store.count(ctx.appId, entity, scopeUserListing(entity, decision.visibleFields, q)) });
  });

  r.get('/:appId/entities/:entity/v2/list', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const entity = checkEntity(c.req.param('entity'));
    const { decision } = await authorize(ctx, c, 'read', entity);
    const sent = { q: parseFilter(c.req.query('q')), sort: parseSort(c.req.query('sort')), fields: parseFields(c.req.query('fields')) };
    const limit = parseCount(c.req.query('limit'), 'limit', MAX_LIMIT) || V2_DEFAULT_LIMIT;
    const rawCursor = c.req.query('cursor');
    let listing = { ...sent, offset: 0 };
    if (rawCursor) {
      const cursor = decodeCursor(rawCursor);
      if (!sameListing(sent, cursor)) {
        throw new HttpError(400, 'CURSOR_MISMATCH', 'q, sort and fields must not change between pages of one listing');
      }
      listing = cursor as typeof listing;
    }
    checkTouched(touchedFields(listing.q, listing.sort), decision.queryFields);
    const rows = await ctx.store.list(ctx.appId, entity, {
      q: scopeUserListing(entity, decision.visibleFields, listing.q),
      sort: listing.sort,
      fields: visibleProjection(listing.fields, decision.visibleFields),
      skip: listing.offset,
      limit: Math.min(limit + 1, MAX_LIMIT + 1),
    });
    const hasMore = rows.length > limit;
    const items = hasMore ? rows.slice(0, limit) : rows;
    const next = hasMore ? encodeCursor({ q: listing.q, sort: listing.sort, fields: listing.fields, offset: listing.offset + limit }) : null;
    return c.json({ items, next_cursor: next, has_more: hasMore });
  });

  r.get('/:appId/entities/:entity', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const entity = checkEntity(c.req.param('entity'));
    const { decision } = await authorize(ctx, c, 'read', entity);
    const params = parseListParams((name) => c.req.query(name));
    checkTouched(params.touched, decision.queryFields);
    const rows = await ctx.store.list(ctx.appId, entity, {
      q: scopeUserListing(entity, decision.visibleFields, params.q),
      sort: params.sort,
      limit: params.limit,
      skip: params.skip,
      fields: visibleProjection(params.fields, decision.visibleFields),
    });
    return c.json(rows);
  });

  r.get('/:appId/entities/:entity/:id', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const entity = checkEntity(c.req.param('entity'));
    const id = checkId(c.req.param('id'));
    const { decision, user } = await authorize(ctx, c, 'read', entity);
    const record = await ctx.store.get(ctx.appId, entity, id);
    if (!record) throw notFound(`${entity} not found`);
    const own = entity === 'User' && id === user.id;
    return c.json(own ? record : project(record, visibleProjection(undefined, decision.visibleFields)));
  });

  return r;
}
