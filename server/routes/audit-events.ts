/**
 * Issue #26: the audit trail through the entity API, as the read-only entity `AuditEvent`
 * (administrators only; mounted before the generic entity routes, which do not know it): list with
 * the usual q/sort/limit/skip/fields, count, v2/list and get by id. POST, PUT and DELETE answer
 * 405 METHOD_NOT_ALLOWED to an administrator (others get the read refusal first: 401/403).
 *
 * `POST …/functions/auditExport {kind, row_count, filters?, exported_at?}` → {ok: true} records
 * an 'export' event: any approved user reports their own CSV export; kind 'audit' (the Audit page's
 * own export) is for administrators only.
 */
import { Hono, type Context } from 'hono';
import { HttpError, notFound } from '../errors';
import { encodeCursor, decodeCursor, sameListing } from '../http/cursor';
import { readJson } from '../http/json-body';
import { MAX_LIMIT, parseCount, parseFields, parseFilter, parseListParams, parseSort } from '../http/list-params';
import { recordEvent } from '../audit/context';
import { AUDIT_ENTITY } from '../../shared/audit';
import { authorize, checkApp, type ServerContext } from './context';
import { checkId } from './entity-guards';

const V2_DEFAULT_LIMIT = 100;
const BASE = `/:appId/entities/${AUDIT_ENTITY}`;
const MAX_FILTERS_JSON = 4096;

export function auditEventRoutes(ctx: ServerContext) {
  const r = new Hono();
  const admin = (c: Context) => {
    checkApp(ctx, c.req.param('appId'));
    return authorize(ctx, c, 'read', AUDIT_ENTITY);
  };

  r.get(`${BASE}/count`, async (c) => {
    await admin(c);
    return c.json({ count: await ctx.store.countAudit(ctx.appId, parseFilter(c.req.query('q'))) });
  });

  r.get(`${BASE}/v2/list`, async (c) => {
    await admin(c);
    const sent = { q: parseFilter(c.req.query('q')), sort: parseSort(c.req.query('sort')), fields: parseFields(c.req.query('fields')) };
    const limit = parseCount(c.req.query('limit'), 'limit', MAX_LIMIT) || V2_DEFAULT_LIMIT;
    const rawCursor = c.req.query('cursor');
    let listing = { ...sent, offset: 0 };
    if (rawCursor) {
      const cursor = decodeCursor(rawCursor);
      if (!sameListing(sent, cursor)) throw new HttpError(400, 'CURSOR_MISMATCH', 'q, sort and fields must not change between pages of one listing');
      listing = cursor as typeof listing;
    }
    const rows = await ctx.store.listAudit(ctx.appId, { q: listing.q, sort: listing.sort, fields: listing.fields, skip: listing.offset, limit: Math.min(limit + 1, MAX_LIMIT + 1) });
    const hasMore = rows.length > limit;
    const next = hasMore ? encodeCursor({ q: listing.q, sort: listing.sort, fields: listing.fields, offset: listing.offset + limit }) : null;
    return c.json({ items: hasMore ? rows.slice(0, limit) : rows, next_cursor: next, has_more: hasMore });
  });

  r.get(BASE, async (c) => {
    await admin(c);
    const params = parseListParams((name) => c.req.query(name));
    return c.json(await ctx.store.listAudit(ctx.appId, { q: params.q, sort: params.sort, limit: params.limit, skip: params.skip, fields: params.fields }));
  });

  r.get(`${BASE}/:id`, async (c) => {
    await admin(c);
    const event = await ctx.store.getAudit(ctx.appId, checkId(c.req.param('id')));
    if (!event) throw notFound(`${AUDIT_ENTITY} not found`);
    return c.json(event);
  });

  const readOnly = async (c: Context) => {
    await admin(c);
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'The audit trail is read-only: events cannot be created, changed or deleted');
  };
  for (const path of [BASE, `${BASE}/*`]) {
    r.post(path, readOnly);
    r.put(path, readOnly);
    r.patch(path, readOnly);
    r.delete(path, readOnly);
  }

  r.post('/:appId/functions/auditExport', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    await authorize(ctx, c, 'report_export', null);
    const body = (await readJson(c)) ?? {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'BAD_REQUEST', 'The body must be a JSON object');
    const { kind, row_count: rowCount, filters, exported_at: exportedAt } = body as Record<string, unknown>;
    if (typeof kind !== 'string' || kind.trim() === '' || kind.length > 60) throw new HttpError(400, 'BAD_REQUEST', 'kind must be text of at most 60 characters');
    if (typeof rowCount !== 'number' || !Number.isInteger(rowCount) || rowCount < 0) throw new HttpError(400, 'BAD_REQUEST', 'row_count must be a non-negative integer');
    if (filters !== undefined && filters !== null && (typeof filters !== 'object' || Array.isArray(filters) || JSON.stringify(filters).length > MAX_FILTERS_JSON)) {
      throw new HttpError(400, 'BAD_REQUEST', `filters must be an object of at most ${MAX_FILTERS_JSON} characters as JSON`);
    }
    const at = typeof exportedAt === 'string' && Number.isFinite(Date.parse(exportedAt)) ? new Date(Date.parse(exportedAt)).toISOString() : null;
    if (kind.trim() === 'audit') await authorize(ctx, c, 'read', AUDIT_ENTITY);
    await recordEvent(ctx.store, ctx.appId, {
      action: 'export',
      entity: kind.trim() === 'audit' ? AUDIT_ENTITY : null,
      client_time: at,
      changes: { kind: kind.trim(), row_count: rowCount, filters: filters ?? null },
    });
    c.header('Cache-Control', 'no-store');
    return c.json({ ok: true });
  });

  return r;
}
