/**
 * createApp(deps): the whole platform server as a Hono app — entity API, sign-in API and page,
 * public settings, app logs and the built PWA. No environment reads and no listening here, so
 * tests drive it with app.request() and main.ts decides where it runs.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import { createAuthService } from './auth/auth-service';
import { deviceKek } from './auth/device-keys';
import { secretKey } from './auth/tokens';
import { checkDevicePolicy, type DevicePolicy } from './device-policy';
import { createMailer } from './mail/mailer';
import type { SendMail } from './mail/messages';
import { DATABASE_RETRY_AFTER_SECONDS, HttpError, notFound, toHttpError } from './errors';
import { MAX_BODY_BYTES } from './http/json-body';
import { securityHeaders } from './http/security-headers';
import { createLifecycle, type Lifecycle } from './http/lifecycle';
import { silentLogger, type Logger } from './http/logger';
import { requestIdOf, requestLog } from './http/request-log';
import { parseTrustProxy } from './http/trust-proxy';
import { healthRoutes } from './routes/health';
import { compressAnswers } from './http/compress';
import { createChangeStreams, type ChangeStreams, type ChangeStreamOptions } from './http/change-streams';
import type { Store } from './store/types';
import { appLogRoutes } from './routes/app-logs';
import { authRoutes } from './routes/auth';
import { sourceOf, type ServerContext } from './routes/context';
import { entityReadRoutes } from './routes/entities-read';
import { auditEventRoutes } from './routes/audit-events';
import { auditContext } from './audit/context';
import { auditedAuth } from './audit/audited-auth';
import { entityWriteRoutes } from './routes/entities-write';
import { eventRoutes } from './routes/events';
import { functionRoutes } from './routes/functions';
import { loginPageRoutes } from './routes/login-page';
import { meRoutes } from './routes/me';
import { publicSettingsRoutes } from './routes/public-settings';
import { staticAppRoutes } from './routes/static-app';

export interface AppDeps {
  store: Store;
  appId: string;
  jwtSecret: string;
  now?: () => Date;
  log?: (message: string) => void;
  /**
   * Sends mail (codes, reset links, invitations; server/mail/). `'off'`: mail is not set up (a
   * production start without SMTP_URL), so sign-up, reset and invitations answer 503 MAIL_OFF.
   * Unset: each mail is written to `log`, marked "(demo: this mail was not sent)" (tests, demo).
   */
  mailer?: SendMail | 'off';
  /** Waits before a reset mail's later tries (default 5 s, 30 s; tests shorten them). */
  mailRetryDelaysMs?: readonly number[];
  /** The built PWA (dist/); without it only the API and the login page are served. */
  distDir?: string;
  /**
   * The address users open (PUBLIC_URL), e.g. https://passage.example.org. Links in mails are built
   * from it, never from the request's Host header. Default http://localhost.
   */
  publicUrl?: string;
  /**
   * TRUST_PROXY (http/trust-proxy.ts): a number of proxy hops or a list of proxy addresses/CIDRs
   * whose X-Forwarded-For names the client (sign-in lockout); `true` is 1 hop. Invalid throws.
   */
  trustProxy?: string | number | boolean;
  /** Structured log (pino, http/logger.ts): one line per request, and internal errors. Default: silent. */
  logger?: Logger;
  /** The drain switch main.ts flips on SIGTERM: /readyz answers 503 from then on. */
  lifecycle?: Lifecycle;
  /**
   * PIN_MIN_LENGTH and IDLE_LOCK_MINUTES, sent with each device key (default 6 digits, 15 minutes).
   * Out of range throws, so a server never starts with a weaker policy than asked.
   */
  devicePolicy?: Partial<DevicePolicy>;
  /**
   * Issue #24.2: the open change streams (`GET …/events`). main.ts passes its own to close them at
   * shutdown; without it the app makes one (with `changeStreamOptions`, e.g. a short keep-alive).
   */
  changeStreams?: ChangeStreams;
  changeStreamOptions?: ChangeStreamOptions;
}

export function createApp(deps: AppDeps) {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((message: string) => console.log(message));
  const sendMail = deps.mailer === 'off' ? null : (deps.mailer ?? createMailer({ mode: 'console' }, log).send);
  const jwtKey = secretKey(deps.jwtSecret);
  const publicUrl = (deps.publicUrl ?? 'http://localhost').replace(/\/+$/, '');
  const ctx: ServerContext = {
    store: deps.store,
    appId: deps.appId,
    jwtKey,
    now,
    log,
    publicUrl,
    trustProxy: parseTrustProxy(deps.trustProxy),
    devicePolicy: checkDevicePolicy(deps.devicePolicy),
    deviceKek: deviceKek(deps.jwtSecret),
    // Issue #26: sign-ins, sign-ups and password changes are recorded in the audit trail.
    auth: auditedAuth(
      deps.store,
      deps.appId,
      now,
      createAuthService({ store: deps.store, appId: deps.appId, jwtKey, secret: deps.jwtSecret, now, sendMail, log, mailRetryDelaysMs: deps.mailRetryDelaysMs, publicUrl }),
    ),
  };

  const logger = deps.logger ?? silentLogger();
  const app = new Hono();
  app.use('*', requestLog(logger));
  app.route('/', healthRoutes(deps.store, deps.lifecycle ?? createLifecycle()));
  app.use('*', securityHeaders);
  // API answers and un-precompressed files: brotli or gzip above 1 KB (issue #11; see http/compress.ts).
  app.use('*', compressAnswers());
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MB');
      },
    }),
  );

  // Issue #26: every request's writes are recorded with its caller, device and address.
  app.use('*', auditContext((c) => sourceOf(ctx, c)));

  app.route('/', loginPageRoutes(ctx)); // includes /api/apps/auth/logout, before /api/apps/:appId
  app.route('/api/apps', publicSettingsRoutes(ctx));
  app.route('/api/apps', meRoutes(ctx)); // User/me before User/:id
  app.route('/api/apps', authRoutes(ctx));
  app.route('/api/apps', auditEventRoutes(ctx)); // AuditEvent and functions/auditExport (issue #26)
  app.route('/api/apps', entityReadRoutes(ctx));
  app.route('/api/apps', entityWriteRoutes(ctx));
  const changeStreams = deps.changeStreams ?? createChangeStreams(deps.store, deps.changeStreamOptions);
  // A revocation is told at once to this instance's open streams of the device or user (S18).
  app.route('/api/apps', functionRoutes(ctx, { revoked: (target) => changeStreams.recheck(ctx.appId, target) }));
  app.route('/api/apps', eventRoutes(ctx, changeStreams));
  app.route('/api/app-logs', appLogRoutes(ctx));
  app.all('/api/*', () => {
    throw notFound('No such API endpoint');
  });
  if (deps.distDir) app.route('/', staticAppRoutes(deps.distDir));

  app.notFound((c) => (c.req.path.startsWith('/api/') ? c.json({ message: 'No such API endpoint', code: 'NOT_FOUND' }, 404) : c.text('Not found', 404)));

  // The one place errors become responses: HttpError → its status and {message, code, extra_data};
  // anything else is a bug → logged, and a 500 that reveals nothing.
  app.onError((thrown, c) => {
    const err = toHttpError(thrown) as Error;
    if (err instanceof HttpError) {
      const extra = err.extra;
      const body: Record<string, unknown> = { message: err.message, code: err.code };
      if (extra) body.extra_data = extra;
      if (extra && typeof extra.field === 'string') body.field = extra.field;
      if (err.status === 429 && typeof extra?.retry_after_seconds === 'number') c.header('Retry-After', String(extra.retry_after_seconds));
      // Database down (issue #25.5): the tablet's engine retries 5xx with backoff and honours this.
      if (err.code === 'DATABASE_UNAVAILABLE') c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      // The rest of a refused body is never read: the connection closes after this answer, so the
      // client's next request goes on a fresh connection instead of after unread bytes.
      if (err.status === 413) c.header('Connection', 'close');
      return c.json(body, err.status as 400);
    }
    if (err instanceof HTTPException && err.status < 500) {
      return c.json({ message: err.message || 'Bad request', code: 'BAD_REQUEST' }, err.status);
    }
    // The route pattern, not the path (ids, e-mails); the stack is what a developer needs to fix it.
    logger.error({ req_id: requestIdOf(c), method: c.req.method, route: routePath(c), err: { type: err?.name, message: err?.message, stack: err?.stack } }, 'internal error');
    return c.json({ message: 'Internal error', code: 'INTERNAL' }, 500);
  });

  return app;
}
