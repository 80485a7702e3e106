/**
 * Backend functions: POST /api/apps/:appId/functions/:name (platform-contract.md 5.5; the client's
 * `functions.invoke(name, params)`). The platform has one:
 *
 * `deviceKey` (issue #14.2b) → `{ key, policy: { pin_min_length, idle_lock_minutes } }`. `key` is the
 * caller's device key, base64 of 32 bytes: made on the first call, the same ever after. Each device
 * wraps its local data key with it (besides the PIN), so a coach who forgot the PIN recovers by
 * signing in online. Allowed to every signed-in user of this app, approved or not, like User/me.
 * The key is never logged and never part of a record; the answer is `Cache-Control: no-store`.
 */
import { Hono } from 'hono';
import { notFound } from '../errors';
import { authorize, checkApp, type ServerContext } from './context';

export function functionRoutes(ctx: ServerContext) {
  const r = new Hono();

  r.post('/:appId/functions/:name', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const name = c.req.param('name');
    if (name !== 'deviceKey') throw notFound('No such function');
    // The parameters ({} from the client) are not read: the key depends on the caller alone.
    const { user } = await authorize(ctx, c, 'device_key', null);
    const key = await ctx.store.deviceKey(ctx.appId, user.id);
    c.header('Cache-Control', 'no-store');
    return c.json({
      key: Buffer.from(key).toString('base64'),
      policy: { pin_min_length: ctx.devicePolicy.pinMinLength, idle_lock_minutes: ctx.devicePolicy.idleLockMinutes },
    });
  });

  return r;
}
