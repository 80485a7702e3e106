/**
 * GET /api/apps/public/prod/public-settings/by-id/:appId (platform-contract.md 5.1). The app is
 * private: only a signed-in, active user of this app gets the settings; others get 403 with
 * extra_data.reason auth_required (no or bad token) or user_not_registered.
 */
import { Hono } from 'hono';
import { HttpError } from '../errors';
import { callerOf, checkApp, type ServerContext } from './context';

export function publicSettingsRoutes(ctx: ServerContext) {
  const r = new Hono();
  r.get('/public/prod/public-settings/by-id/:appId', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const caller = await callerOf(ctx, c);
    // A revoked session or device reads as signed out here; the next API call says why (401).
    if (caller.kind === 'anonymous' || caller.kind === 'invalid' || caller.kind === 'revoked') {
      throw new HttpError(403, 'AUTH_REQUIRED', 'Please sign in', { reason: 'auth_required' });
    }
    if (caller.kind === 'unregistered') {
      throw new HttpError(403, 'USER_NOT_REGISTERED', 'This account is not registered for this app', { reason: 'user_not_registered' });
    }
    return c.json({ id: ctx.appId, public_settings: 'private_with_login' });
  });
  return r;
}
