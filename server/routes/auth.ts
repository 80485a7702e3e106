/** The JSON sign-in API (platform-contract.md 3.1) and the invitation endpoint. */
import { Hono } from 'hono';
import { readObject } from '../http/json-body';
import { authorize, checkApp, sourceOf, type ServerContext } from './context';

export function authRoutes(ctx: ServerContext) {
  const r = new Hono();
  const { auth } = ctx;

  r.post('/:appId/auth/login', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const body = await readObject(c);
    return c.json(await auth.login(body.email, body.password, sourceOf(ctx, c)));
  });

  r.post('/:appId/auth/register', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    return c.json(await auth.register(await readObject(c)));
  });

  r.post('/:appId/auth/verify-otp', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const body = await readObject(c);
    return c.json(await auth.verifyOtp(body.email, body.otp_code));
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
    const signedIn = await auth.resetPassword(body.reset_token, body.new_password);
    return c.json({ message: 'Password changed', ...signedIn });
  });

  r.post('/:appId/auth/change-password', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const { user } = await authorize(ctx, c, 'read_me', 'User');
    return c.json(await auth.changePassword(user, await readObject(c), sourceOf(ctx, c)));
  });

  r.post('/:appId/users/invite-user', async (c) => {
    checkApp(ctx, c.req.param('appId'));
    const { user } = await authorize(ctx, c, 'invite', null);
    const body = await readObject(c);
    return c.json(await auth.invite(user, body.user_email, body.role));
  });

  return r;
}
