/** App usage logs (platform-contract.md 5.2): any signed-in user writes; admins read. */
import { Hono } from 'hono';
import { HttpError } from '../errors';
import { parseCount } from '../http/list-params';
import { authorize, checkApp, type ServerContext } from './context';

export function appLogRoutes(ctx: ServerContext) {
  const r = new Hono();

  r.post('/:appId/log-user-in-app/:pageName', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const { user } = await authorize(ctx, c, 'write_log', null);
    const page = c.req.param('pageName');
    // 200 characters: page names are short identifiers; a longer one is not a page.
    if (page.length > 200) throw new HttpError(400, 'BAD_REQUEST', 'Page name is too long');
    await ctx.store.appendLog(ctx.appId, { page, user_id: user.id, user_email: typeof user.email === 'string' ? user.email : null });
    return c.json({ success: true });
  });

  r.get('/:appId', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    await authorize(ctx, c, 'read_logs', null);
    const limit = parseCount(c.req.query('limit'), 'limit', 1000) || 100;
    const skip = parseCount(c.req.query('skip'), 'skip', 10_000_000);
    return c.json(await ctx.store.listLogs(ctx.appId, { limit, skip }));
  });

  return r;
}
