/**
 * The caller's own User record: GET and PUT /api/apps/:appId/entities/User/me. Any registered,
 * signed-in user may use these, approved or not (that is how a coach requests access).
 *
 * PUT me silently drops role, approved, approval_date, approved_by, email and id (and the
 * server-kept fields): clients commonly send back the whole user object they read, so refusing
 * would break harmless saves, while dropping guarantees nobody promotes themselves.
 */
import { Hono } from 'hono';
import { notFound } from '../errors';
import { SELF_PROTECTED_FIELDS } from '../auth/permissions';
import { readObject } from '../http/json-body';
import { validateRecord } from '../http/validate-record';
import { authorize, checkApp, type ServerContext } from './context';

const DROPPED_ON_ME = new Set<string>([...SELF_PROTECTED_FIELDS, 'disabled', 'invited_by']);

export function meRoutes(ctx: ServerContext) {
  const r = new Hono();

  r.get('/:appId/entities/User/me', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const { user } = await authorize(ctx, c, 'read_me', 'User');
    return c.json(user);
  });

  r.put('/:appId/entities/User/me', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const { user } = await authorize(ctx, c, 'update_me', 'User');
    const body = await readObject(c);
    const allowed = Object.fromEntries(Object.entries(body).filter(([k]) => !DROPPED_ON_ME.has(k)));
    const patch = validateRecord('User', allowed, 'update');
    const updated = Object.keys(patch).length ? await ctx.store.update(ctx.appId, 'User', user.id, patch) : user;
    if (!updated) throw notFound('User not found');
    return c.json(updated);
  });

  return r;
}
