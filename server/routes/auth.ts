/**
 * The JSON sign-in API (platform-contract.md 3.1), the one-time code exchange and logout (issue
 * #21), and the invitation endpoint. Every answer here is `Cache-Control: no-store` (the /api
 * middleware, http/security-headers.ts).
 */
import { Hono } from 'hono';
import { optionalDeviceId } from '../auth/sessions';
import { HttpError } from '../errors';
import { bearerToken } from '../auth/principal';
import { readToken } from '../auth/tokens';
import { readJson, readObject } from '../http/json-body';
import { authorize, checkApp, sourceOf, type ServerContext } from './context';

/** Sessions an anonymous logout may end at once (a tablet's backlog of offline logouts). */
const MAX_LOGOUT_SESSIONS = 20;

export function authRoutes(ctx: ServerContext) {
  const r = new Hono();
  const { auth } = ctx;

  r.post('/:appId/auth/login', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const body = await readObject(c);
    const deviceId = optionalDeviceId(body.device_id); // checked before the credential is spent
    return c.json(await auth.startSession(await auth.login(body.email, body.password, sourceOf(ctx, c)), deviceId));
  });

  r.post('/:appId/auth/register', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    return c.json(await auth.register(await readObject(c)));
  });

  r.post('/:appId/auth/verify-otp', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const body = await readObject(c);
    const deviceId = optionalDeviceId(body.device_id);
    return c.json(await auth.startSession(await auth.verifyOtp(body.email, body.otp_code), deviceId));
  });

  r.post('/:appId/auth/resend-otp', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    return c.json(await auth.resendOtp((await readObject(c)).email));
  });

  r.post('/:appId/auth/reset-password-request', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    return c.json(await auth.requestReset((await readObject(c)).email));
  });

  r.post('/:appId/auth/reset-password', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const body = await readObject(c);
    const deviceId = optionalDeviceId(body.device_id);
    const signedIn = await auth.startSession(await auth.resetPassword(body.reset_token, body.new_password), deviceId);
    return c.json({ message: 'Password changed', ...signedIn });
  });

  r.post('/:appId/auth/change-password', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const { user, claims } = await authorize(ctx, c, 'read_me', 'User');
    return c.json(await auth.changePassword(user, claims, await readObject(c), sourceOf(ctx, c)));
  });

  // The /login page's one-time code → { access_token, user } (issue #21).
  r.post('/:appId/auth/exchange', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    return c.json(await auth.exchange(await readObject(c)));
  });

  // Ends the bearer token's session and/or the sessions listed. A sid is a 128-bit random
  // capability that only lets its holder end the session, so no token is needed for the list: a
  // tablet logged out offline, or erased, tells the server at its next contact.
  r.post('/:appId/auth/logout', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const body = await readJson(c); // a bearer logout may send no body at all
    const listed = sessionList(typeof body === 'object' && body !== null && Object.hasOwn(body, 'sessions') ? (body as { sessions: unknown }).sessions : undefined);
    const token = bearerToken(c.req.header('authorization'));
    const claims = token ? await readToken(ctx.jwtKey, token, ctx.now()) : null;
    if (claims?.sid && claims.app_id === ctx.appId) await ctx.store.revokeSessions(ctx.appId, [claims.sid], 'logout', claims.sub);
    if (listed.length) await ctx.store.revokeSessions(ctx.appId, listed, 'logout');
    return c.json({ ok: true });
  });

  r.post('/:appId/users/invite-user', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const { user } = await authorize(ctx, c, 'invite', null);
    const body = await readObject(c);
    return c.json(await auth.invite(user, body.user_email, body.role));
  });

  return r;
}

function sessionList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const ok = Array.isArray(value) && value.length <= MAX_LOGOUT_SESSIONS && value.every((s) => typeof s === 'string' && s.length > 0 && s.length <= 64);
  if (!ok) throw new HttpError(400, 'BAD_REQUEST', `sessions must be a list of at most ${MAX_LOGOUT_SESSIONS} session ids`);
  return value as string[];
}
