/** Entity writes: create, bulk create, update (merge), bulk update and delete. */
import { Hono, type Context } from 'hono';
import { HttpError, notFound, unprocessable } from '../errors';
import { readJson, readObject } from '../http/json-body';
import { PREVIOUS_HEADER, previousHeader } from '../http/previous-header';
import { validateRecord } from '../http/validate-record';
import type { EntityRecord } from '../store/types';
import { authorize, checkApp, type ServerContext } from './context';
import { checkEntity, checkId } from './entity-guards';
import { checkCohortCodes, checkNotInUse, checkPossibleDuplicates } from './integrity';
import { authorizeCohortWork, checkAttendanceSessions, checkSessionMoves, isCohortWork } from './cohort-work';

// 500 per bulk call: the platform's documented limit (platform-contract.md 7).
export const MAX_BULK = 500;

function bulkArray(body: unknown): unknown[] {
  if (!Array.isArray(body)) throw new HttpError(400, 'BAD_REQUEST', 'The body must be a JSON array');
  if (body.length > MAX_BULK) throw new HttpError(400, 'TOO_MANY', `At most ${MAX_BULK} records per request`);
  return body;
}

/** Users' e-mail addresses key their sign-in; changing one would orphan the account. */
async function checkUserEmail(ctx: ServerContext, entity: string, id: string, patch: Record<string, unknown>): Promise<void> {
  if (entity !== 'User' || patch.email === undefined) return;
  const current = await ctx.store.get(ctx.appId, 'User', id);
  if (current && patch.email !== current.email) {
    throw unprocessable('Email addresses cannot be changed', 'email');
  }
}

export function entityWriteRoutes(ctx: ServerContext) {
  const r = new Hono();
  const meta = (user: EntityRecord) => ({ by: typeof user.email === 'string' ? user.email : null, byId: user.id });
  const target = (c: Context) => {
    checkApp(ctx, c.req.param('appId'));
    return checkEntity(c.req.param('entity') ?? '');
  };
  // Sessions and Attendance (issue #23): whether a coach may write depends on the record's cohort,
  // so the first gate only asks that the caller may use the app; each record is checked below.
  const gate = (c: Context, action: 'create' | 'update' | 'delete', entity: string) =>
    authorize(ctx, c, isCohortWork(entity) ? 'read' : action, entity);
  const storedOf = async (entity: string, id: string) => {
    if (!isCohortWork(entity)) return undefined;
    const stored = await ctx.store.get(ctx.appId, entity, id);
    if (!stored) throw notFound(`${entity} not found`);
    return stored;
  };

  r.post('/:appId/entities/:entity/bulk', async (c) => {
    const entity = target(c);
    const { user } = await gate(c, 'create', entity);
    const rows = bulkArray(await readJson(c)).map((row) => validateRecord(entity, row, 'create'));
    if (rows.length === 0) return c.json([]);
    if (isCohortWork(entity)) for (const body of rows) await authorizeCohortWork(ctx, c, 'create', entity, user, { body });
    await checkCohortCodes(ctx, entity, rows);
    await checkPossibleDuplicates(ctx, entity, rows);
    await checkAttendanceSessions(ctx, entity, rows.map((body) => ({ body })));
    return c.json(await ctx.store.createMany(ctx.appId, entity, rows, meta(user)));
  });

  r.put('/:appId/entities/:entity/bulk', async (c) => {
    const entity = target(c);
    const { user } = await gate(c, 'update', entity);
    const patches = bulkArray(await readJson(c)).map((row) => {
      const id = (row as { id?: unknown } | null)?.id;
      if (typeof id !== 'string') throw unprocessable('Every record needs its id', 'id');
      return { ...validateRecord(entity, row, 'update'), id: checkId(id) };
    });
    const checked: Array<{ body: Record<string, unknown>; stored?: EntityRecord | null }> = [];
    for (const { id, ...patch } of patches) {
      const stored = await storedOf(entity, id);
      if (stored) await authorizeCohortWork(ctx, c, 'update', entity, user, { stored, body: patch });
      else await authorize(ctx, c, 'update', entity, { fields: Object.keys(patch), self: entity === 'User' && id === user.id });
      await checkUserEmail(ctx, entity, id, patch);
      checked.push({ body: patch, stored });
    }
    if (patches.length === 0) return c.json([]);
    await checkCohortCodes(ctx, entity, patches);
    await checkAttendanceSessions(ctx, entity, checked);
    await checkSessionMoves(ctx, entity, checked);
    const updated = await ctx.store.updateManyWithPrevious(ctx.appId, entity, patches);
    const previous = previousHeader(updated.map((u, i) => ({ patch: patches[i], updated: u })));
    if (previous) c.header(PREVIOUS_HEADER, previous);
    return c.json(updated.map((u) => u.record));
  });

  r.post('/:appId/entities/:entity', async (c) => {
    const entity = target(c);
    const { user } = await gate(c, 'create', entity);
    const data = validateRecord(entity, await readObject(c), 'create');
    if (isCohortWork(entity)) await authorizeCohortWork(ctx, c, 'create', entity, user, { body: data });
    await checkCohortCodes(ctx, entity, [data]);
    await checkPossibleDuplicates(ctx, entity, [data]);
    await checkAttendanceSessions(ctx, entity, [{ body: data }]);
    return c.json(await ctx.store.create(ctx.appId, entity, data, meta(user)));
  });

  r.put('/:appId/entities/:entity/:id', async (c) => {
    const entity = target(c);
    const id = checkId(c.req.param('id') ?? '');
    const { user } = await gate(c, 'update', entity);
    const patch = validateRecord(entity, await readObject(c), 'update');
    const stored = await storedOf(entity, id);
    if (stored) await authorizeCohortWork(ctx, c, 'update', entity, user, { stored, body: patch });
    else await authorize(ctx, c, 'update', entity, { fields: Object.keys(patch), self: entity === 'User' && id === user.id });
    await checkUserEmail(ctx, entity, id, patch);
    await checkCohortCodes(ctx, entity, [{ ...patch, id }]);
    await checkAttendanceSessions(ctx, entity, [{ body: patch, stored }]);
    await checkSessionMoves(ctx, entity, [{ body: patch, stored }]);
    const updated = await ctx.store.updateWithPrevious(ctx.appId, entity, id, patch);
    if (!updated) throw notFound(`${entity} not found`);
    const previous = previousHeader([{ patch, updated }]);
    if (previous) c.header(PREVIOUS_HEADER, previous);
    return c.json(updated.record);
  });

  r.delete('/:appId/entities/:entity/:id', async (c) => {
    const entity = target(c);
    const id = checkId(c.req.param('id') ?? '');
    const { user } = await gate(c, 'delete', entity);
    const stored = await storedOf(entity, id);
    if (stored) await authorizeCohortWork(ctx, c, 'delete', entity, user, { stored });
    else await authorize(ctx, c, 'delete', entity, { self: entity === 'User' && id === user.id });
    await checkNotInUse(ctx, entity, id);
    if (!(await ctx.store.delete(ctx.appId, entity, id))) throw notFound(`${entity} not found`);
    return c.json({ success: true });
  });

  return r;
}
