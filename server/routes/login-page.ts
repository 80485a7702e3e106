/**
 * GET /login?from_url=…&code_challenge=…&code_challenge_method=S256 and its form posts: sign in,
 * register → code → signed in, and password reset. On success the browser goes to from_url (same
 * origin only) with ?code=<one-time code>, never a token (issue #21): the code is good for 60 s,
 * once, and only with the verifier behind the challenge when the app sent one; the app trades it
 * for the token by POST auth/exchange. Every answer is `Cache-Control: no-store`.
 * GET /api/apps/auth/logout?from_url=… sends the browser back (the token lives in the client).
 */
import { Hono, type Context } from 'hono';
import { MAIL_OFF_MESSAGES } from '../auth/auth-service';
import { CODE_CHALLENGE, type Grant } from '../auth/sessions';
import { HttpError } from '../errors';
import { safeTarget, withCode } from '../http/safe-redirect';
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
  /** What every form carries: where to go back to, and the app's PKCE challenge (or null). */
  type Carry = { from: string; challenge: string | null };
  const carryOf = (c: Context, from: string | undefined, challenge: string | undefined, method?: string): Carry => ({
    from: fromOf(c, from),
    challenge: challengeOf(challenge, method),
  });
  const show = (c: Context, view: LoginView, carry: Carry, status = 200) => {
    c.header('Cache-Control', 'no-store');
    return c.html(renderLogin(view, carry.from, carry.challenge), status as 200);
  };
  const done = async (c: Context, carry: Carry, grant: Grant) => {
    const code = await auth.issueCode(grant, carry.challenge);
    c.header('Cache-Control', 'no-store');
    return c.redirect(withCode(safeTarget(carry.from, originOf(c)), code), 303);
  };
  /** Runs a step; a known failure re-renders the form with the message, anything else propagates. */
  const attempt = async (c: Context, carry: Carry, step: () => Promise<Response>, onError: (message: string) => LoginView, status = 400) => {
    try {
      return await step();
    } catch (err) {
      if (err instanceof HttpError && err.status < 500) return show(c, onError(err.message), carry, err.status === 429 ? 429 : status);
      // Mail not set up, or the mail server refused: said on the form, with the 503 (issue #25.1).
      if (err instanceof HttpError && err.code.startsWith('MAIL_')) return show(c, onError(err.message), carry, err.status);
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
    const carry = carryOf(c, c.req.query('from_url'), c.req.query('code_challenge'), c.req.query('code_challenge_method'));
    const mode = c.req.query('mode');
    const token = c.req.query('reset_token');
    if (token) return show(c, { kind: 'reset', token }, carry);
    // Without mail, say so before anyone fills in a form that cannot work (issue #25.1).
    const off = !auth.mailIsOn;
    if (mode === 'register') return show(c, { kind: 'register', error: off ? MAIL_OFF_MESSAGES.signUp : undefined }, carry);
    if (mode === 'reset') return show(c, { kind: 'reset-request', error: off ? MAIL_OFF_MESSAGES.reset : undefined }, carry);
    return show(c, { kind: 'signin' }, carry);
  });

  r.post('/login', async (c) => {
    const form = await readForm(c);
    const carry = carryOf(c, form.from_url, form.code_challenge);
    return attempt(
      c,
      carry,
      async () => done(c, carry, await auth.login(form.email, form.password, sourceOf(ctx, c))),
      (error) => ({ kind: 'signin', email: form.email, error }),
      401,
    );
  });

  r.post('/login/register', async (c) => {
    const form = await readForm(c);
    const carry = carryOf(c, form.from_url, form.code_challenge);
    return attempt(
      c,
      carry,
      async () => {
        const { email, message } = await auth.register({ email: form.email, password: form.password, full_name: form.full_name });
        return show(c, { kind: 'otp', email, notice: message }, carry);
      },
      (error) => ({ kind: 'register', email: form.email, fullName: form.full_name, error }),
    );
  });

  r.post('/login/verify', async (c) => {
    const form = await readForm(c);
    const carry = carryOf(c, form.from_url, form.code_challenge);
    return attempt(
      c,
      carry,
      async () => done(c, carry, await auth.verifyOtp(form.email, form.otp_code)),
      (error) => ({ kind: 'otp', email: form.email ?? '', error }),
    );
  });

  r.post('/login/resend', async (c) => {
    const form = await readForm(c);
    const carry = carryOf(c, form.from_url, form.code_challenge);
    return attempt(
      c,
      carry,
      async () => show(c, { kind: 'otp', email: form.email ?? '', notice: (await auth.resendOtp(form.email)).message }, carry),
      (error) => ({ kind: 'otp', email: form.email ?? '', error }),
    );
  });

  r.post('/login/reset-request', async (c) => {
    const form = await readForm(c);
    const carry = carryOf(c, form.from_url, form.code_challenge);
    return attempt(
      c,
      carry,
      async () => show(c, { kind: 'reset', notice: (await auth.requestReset(form.email)).message }, carry),
      (error) => ({ kind: 'reset-request', email: form.email, error }),
    );
  });

  r.post('/login/reset', async (c) => {
    const form = await readForm(c);
    const carry = carryOf(c, form.from_url, form.code_challenge);
    return attempt(
      c,
      carry,
      async () => done(c, carry, await auth.resetPassword(form.reset_token, form.new_password)),
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

/**
 * A PKCE challenge the page may carry: S256 only (the method defaults to it when absent, as the
 * app always sends it). Anything else is dropped, and the sign-in then yields an unbound code: it
 * still goes only to this origin, for 60 s, once.
 */
function challengeOf(challenge: string | undefined, method = 'S256'): string | null {
  return method === 'S256' && typeof challenge === 'string' && CODE_CHALLENGE.test(challenge) ? challenge : null;
}
