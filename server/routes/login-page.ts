/**
 * GET /login?from_url=… and its form posts: sign in, register → code → signed in, and password
 * reset. On success the browser goes to from_url (same origin only) with ?access_token=<jwt>.
 * GET /api/apps/auth/logout?from_url=… sends the browser back (the token lives in the client).
 */
import { Hono, type Context } from 'hono';
import { HttpError } from '../errors';
import { safeTarget, withToken } from '../http/safe-redirect';
import { originOf, sourceOf, type ServerContext } from './context';
import { renderLogin, type LoginView } from './login-page-html';

type Form = Record<string, string>;

async function readForm(c: Context): Promise<Form> {
  const body = await c.req.parseBody().catch(() => ({}));
  const out: Form = Object.create(null); // form field names index it: no inherited toString & co.
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function loginPageRoutes(ctx: ServerContext) {
  const r = new Hono();
  const { auth } = ctx;

  /** The from_url to carry through the forms: relative to this origin, or '/' when foreign. */
  const fromOf = (c: Context, raw: string | undefined) => {
    const target = safeTarget(raw, originOf(c));
    return target.pathname + target.search + target.hash;
  };
  const show = (c: Context, view: LoginView, from: string, status = 200) => {
    c.header('Cache-Control', 'no-store');
    return c.html(renderLogin(view, from), status as 200);
  };
  const done = (c: Context, from: string, token: string) => c.redirect(withToken(safeTarget(from, originOf(c)), token), 303);
  /** Runs a step; a known failure re-renders the form with the message, anything else propagates. */
  const attempt = async (c: Context, from: string, step: () => Promise<Response>, onError: (message: string) => LoginView, status = 400) => {
    try {
      return await step();
    } catch (err) {
      if (err instanceof HttpError && err.status < 500) return show(c, onError(err.message), from, err.status === 429 ? 429 : status);
      throw err;
    }
  };

  // Login CSRF: a form posted from another site must not sign the visitor in (as the attacker) or
  // act for them. Sec-Fetch-Site (all current browsers) decides when present; otherwise Origin
  // must be this site. Our own pages send `Origin: null` (Referrer-Policy: no-referrer), so a
  // null origin passes only with Sec-Fetch-Site: same-origin. Tools that send neither header are
  // not a browser being tricked.
  r.use('/login', sameOriginPosts);
  r.use('/login/*', sameOriginPosts);
  async function sameOriginPosts(c: Context, next: () => Promise<void>) {
    if (c.req.method !== 'POST') return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    const allowed = new Set([originOf(c), new URL(ctx.publicUrl).origin]);
    const ownOrigin = origin !== undefined && allowed.has(origin);
    const crossSite =
      fetchSite === 'same-origin' || fetchSite === 'none'
        ? origin !== undefined && origin !== 'null' && !ownOrigin
        : fetchSite !== undefined
          ? !ownOrigin
          : origin !== undefined && !ownOrigin;
    if (crossSite) {
      c.header('Cache-Control', 'no-store');
      return c.html(renderLogin({ kind: 'signin', error: 'This form was sent from another site. Open the sign-in page and try again.' }, '/'), 403);
    }
    return next();
  }

  r.get('/login', (c) => {
    const from = fromOf(c, c.req.query('from_url'));
    const mode = c.req.query('mode');
    const token = c.req.query('reset_token');
    if (token) return show(c, { kind: 'reset', token }, from);
    if (mode === 'register') return show(c, { kind: 'register' }, from);
    if (mode === 'reset') return show(c, { kind: 'reset-request' }, from);
    return show(c, { kind: 'signin' }, from);
  });

  r.post('/login', async (c) => {
    const form = await readForm(c);
    const from = fromOf(c, form.from_url);
    return attempt(
      c,
      from,
      async () => done(c, from, (await auth.login(form.email, form.password, sourceOf(ctx, c))).access_token),
      (error) => ({ kind: 'signin', email: form.email, error }),
      401,
    );
  });

  r.post('/login/register', async (c) => {
    const form = await readForm(c);
    const from = fromOf(c, form.from_url);
    return attempt(
      c,
      from,
      async () => {
        const { email, message } = await auth.register({ email: form.email, password: form.password, full_name: form.full_name });
        return show(c, { kind: 'otp', email, notice: message }, from);
      },
      (error) => ({ kind: 'register', email: form.email, fullName: form.full_name, error }),
    );
  });

  r.post('/login/verify', async (c) => {
    const form = await readForm(c);
    const from = fromOf(c, form.from_url);
    return attempt(
      c,
      from,
      async () => done(c, from, (await auth.verifyOtp(form.email, form.otp_code)).access_token),
      (error) => ({ kind: 'otp', email: form.email ?? '', error }),
    );
  });

  r.post('/login/resend', async (c) => {
    const form = await readForm(c);
    const from = fromOf(c, form.from_url);
    return attempt(
      c,
      from,
      async () => show(c, { kind: 'otp', email: form.email ?? '', notice: (await auth.resendOtp(form.email)).message }, from),
      (error) => ({ kind: 'otp', email: form.email ?? '', error }),
    );
  });

  r.post('/login/reset-request', async (c) => {
    const form = await readForm(c);
    const from = fromOf(c, form.from_url);
    return attempt(
      c,
      from,
      async () => show(c, { kind: 'reset', notice: (await auth.requestReset(form.email)).message }, from),
      (error) => ({ kind: 'reset-request', email: form.email, error }),
    );
  });

  r.post('/login/reset', async (c) => {
    const form = await readForm(c);
    const from = fromOf(c, form.from_url);
    return attempt(
      c,
      from,
      async () => done(c, from, (await auth.resetPassword(form.reset_token, form.new_password)).access_token),
      (error) => ({ kind: 'reset', token: form.reset_token, error }),
    );
  });

  r.get('/api/apps/auth/logout', (c) => {
    const target = safeTarget(c.req.query('from_url'), originOf(c));
    c.header('Cache-Control', 'no-store');
    return c.redirect(target.href, 302);
  });

  return r;
}
