/**
 * The server process (`npm start` runs its bundle, scripts/build-server.mjs; `npm run server` runs it
 * under tsx): reads the environment, opens the store, seeds demo data on a
 * first start, serves the app and the API, and shuts down cleanly on SIGTERM/SIGINT.
 *
 * PORT (4173) · HOST (127.0.0.1) · DATA_DIR (./data) · DATABASE_URL (PostgreSQL; else embedded
 * PGlite in DATA_DIR) · APP_ID (passage) · JWT_SECRET (≥ 32 bytes; else, with DATABASE_URL, generated once
 *   into the database and shared by every instance; with PGlite, generated once into DATA_DIR/jwt-secret)
 * · SMTP_URL (smtp:// or smtps://user:password@host:port) and MAIL_FROM (the sender): mail; without
 *   them a demo start prints mail and any other start runs with mail off (server/mail/mailer.ts)
 * · DEMO (1 = seed an empty database, 0 = never; default: only when HOST is loopback)
 * · PUBLIC_URL (the address users open, for links in mails; default http://localhost:PORT)
 * · TRUST_PROXY (proxies whose X-Forwarded-For names the client: a hop count such as 1, or a list of
 *   their addresses/CIDRs such as 10.0.0.0/8,127.0.0.1 — safer; http/trust-proxy.ts)
 * · STATEMENT_TIMEOUT_MS (longest a statement of a write transaction may run; default 30000)
 * · READ_TIMEOUT_MS (longest a read may run; default 3000, never above STATEMENT_TIMEOUT_MS)
 * · DATABASE_POOL_SIZE (PostgreSQL connections per process, 1–1000; default 10)
 * · LOG_LEVEL (trace…fatal, silent; default info) · LOG_FORMAT (json, or pretty; default pretty only
 *   when stdout is a terminal): structured logs, http/logger.ts
 * · SHUTDOWN_DELAY_MS (0–2000, default 0): how long SIGTERM keeps serving with /readyz at 503 before
 *   it stops accepting; then requests in flight get 5 s, and the process is gone within 8 s of SIGTERM.
 * · PIN_MIN_LENGTH (4–12, default 6) · IDLE_LOCK_MINUTES (above 0, at most 30, default 15): the
 *   device policy sent with each device key (device-policy.ts); out of range, the server refuses to start.
 * · DIST_DIR (./dist): the built app it serves (the browser tests serve dist-e2e/, vite.config.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { DEFAULT_APP_ID, E2E_BUILD_MARK } from '../shared/config';
import { createApp } from './app';
import { createChangeStreams } from './http/change-streams';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo/accounts';
import { devicePolicyFromEnv } from './device-policy';
import { seedDemo } from './demo/seed';
import { serverSecret } from './auth/server-secret';
import { createMailer, mailErrorSummary, mailSetupFromEnv } from './mail/mailer';
import { createLifecycle } from './http/lifecycle';
import { createLogger, logFormatOf, logLevelOf, prettyDestination } from './http/logger';
import { parseTrustProxy } from './http/trust-proxy';
import { createStore } from './store/index';

const env = process.env;
const port = Number(env.PORT || 4173);
const host = env.HOST || '127.0.0.1';
const dataDir = resolve(env.DATA_DIR || './data');
const appId = env.APP_ID || DEFAULT_APP_ID;
// Links in mails (password reset, invitations) are built from this, never from request headers:
// a forged Host header must not turn a reset mail into a link to someone else's site.
const publicUrl = publicUrlOf(env.PUBLIC_URL, port);
const statementTimeoutMs = env.STATEMENT_TIMEOUT_MS ? Number(env.STATEMENT_TIMEOUT_MS) : undefined;
const readTimeoutMs = env.READ_TIMEOUT_MS ? Number(env.READ_TIMEOUT_MS) : undefined;
const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
// Demo accounts share a published password, so they never appear on a reachable host unless asked.
const demo = env.DEMO === '1' || (env.DEMO !== '0' && loopback);
// JSON lines for a log collector; readable lines for a person running `npm start` in a terminal.
const logger = (() => {
  try {
    return createLogger({
      level: logLevelOf(env.LOG_LEVEL),
      destination: logFormatOf(env.LOG_FORMAT, Boolean(process.stdout.isTTY)) === 'pretty' ? prettyDestination() : undefined,
    });
  } catch (err) {
    // No logger yet to say it with: one plain line.
    console.error(`Passage could not start: ${(err as Error).message}`);
    process.exit(1);
  }
})();

/**
 * SIGTERM's bounds (issue #25.5): requests in flight get DRAIN_MS to finish, then their connections
 * are closed; the database then gets what is left of EXIT_MS, after which the process exits anyway
 * (a statement stuck in the database is rolled back as after a crash). 8 s leaves 2 s of margin
 * under `docker stop`'s 10 s before SIGKILL.
 */
const DRAIN_MS = 5_000;
const EXIT_MS = 8_000;
/**
 * SHUTDOWN_DELAY_MS (0–2000, default 0): after SIGTERM, keep accepting requests this long with
 * /readyz at 503, for an orchestrator whose routing lags behind readiness (Kubernetes endpoints).
 * Behind Caddy or nginx leave it at 0: a refused connection is retried on the other instance at once.
 */
const shutdownDelayMs = env.SHUTDOWN_DELAY_MS ? Number(env.SHUTDOWN_DELAY_MS) : 0;

async function main() {
  // A wrong SMTP_URL/MAIL_FROM stops the start before anything opens (issue #25.1).
  const mailSetup = mailSetupFromEnv(env, demo);
  if (statementTimeoutMs !== undefined && !(Number.isInteger(statementTimeoutMs) && statementTimeoutMs >= 100)) {
    throw new Error('STATEMENT_TIMEOUT_MS must be a whole number of milliseconds, at least 100');
  }
  if (readTimeoutMs !== undefined && !(Number.isInteger(readTimeoutMs) && readTimeoutMs >= 100)) {
    throw new Error('READ_TIMEOUT_MS must be a whole number of milliseconds, at least 100');
  }
  const devicePolicy = devicePolicyFromEnv(env);
  parseTrustProxy(env.TRUST_PROXY); // refuses a malformed value before anything opens
  if (!(Number.isInteger(shutdownDelayMs) && shutdownDelayMs >= 0 && shutdownDelayMs <= 2000)) {
    throw new Error('SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to 2000');
  }
  const poolSize = env.DATABASE_POOL_SIZE ? Number(env.DATABASE_POOL_SIZE) : undefined;
  if (poolSize !== undefined && !(Number.isInteger(poolSize) && poolSize >= 1 && poolSize <= 1000)) {
    throw new Error('DATABASE_POOL_SIZE must be a whole number of connections from 1 to 1000');
  }
  // One secret for every instance on one database (issue #25.3; auth/server-secret.ts).
  const jwtSecret = await serverSecret({ jwtSecret: env.JWT_SECRET || undefined, databaseUrl: env.DATABASE_URL || undefined, dataDir, log: (line) => logger.info(line) });
  const store = await createStore({ dataDir, databaseUrl: env.DATABASE_URL || undefined, statementTimeoutMs, readTimeoutMs, poolSize });
  // Demo mails go to the terminal as plain text (the person trying the demo reads them there).
  const mailer = createMailer(mailSetup, (text) => console.log(text));
  if (mailSetup.mode === 'smtp') {
    const at = new URL(mailSetup.url);
    logger.info(`Mail: sent through ${at.hostname}:${at.port || (at.protocol === 'smtps:' ? 465 : 587)} as ${mailSetup.from}`);
    void mailer.verify().catch((err) => logger.warn(`Mail: the SMTP server did not accept a test connection (${mailErrorSummary(err)}); mails will be tried anyway.`));
  } else if (mailSetup.mode === 'console') {
    logger.info('Mail: not set up (no SMTP_URL); this demo start prints each mail here instead of sending it.');
  } else {
    logger.warn('Mail is off: SMTP_URL and MAIL_FROM are not set, so sign-up, password reset and invitations answer that mail is not set up. Create the first administrator with npm run admin:create.');
  }
  const distDir = resolve(env.DIST_DIR || 'dist');
  const indexHtml = resolve(distDir, 'index.html');
  if (!existsSync(indexHtml)) logger.warn(`${distDir} holds no built app: only the API and /login are served (run npm run build).`);
  else if (readFileSync(indexHtml, 'utf8').includes(E2E_BUILD_MARK)) logger.warn(`${distDir} is a browser-test build (vite build --mode e2e), in which a page script can make the PIN cheaper to guess: serve a production build (npm run build) to coaches.`);

  if (demo) {
    const summary = await seedDemo(store, appId, { now: new Date() });
    if (summary.seeded) logger.info(`Demo data created: ${Object.entries(summary.counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
  }

  // Issue #24.2: the open event streams, ended first at shutdown (they never finish on their own).
  const changeStreams = createChangeStreams(store);
  const lifecycle = createLifecycle();
  const app = createApp({ store, appId, jwtSecret, mailer: mailer.send ?? 'off', distDir, publicUrl, trustProxy: env.TRUST_PROXY, devicePolicy, logger, lifecycle, changeStreams });
  const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
    const shown = host.includes(':') ? `[${host}]` : host;
    logger.info(`Passage is running at http://${shown}:${info.port}/`);
    // The demo accounts are a cheat sheet for the person at the terminal, printed as plain lines
    // (never with DEMO=0, so never in a real deployment's log); their addresses are published ones.
    if (demo) {
      console.log(`Demo accounts (password ${DEMO_PASSWORD}):`);
      for (const a of DEMO_ACCOUNTS) console.log(`  ${a.email.padEnd(22)} ${a.state}`);
    }
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const t0 = performance.now();
    const since = () => Math.round(performance.now() - t0);
    logger.info({ signal }, `${signal}: draining (readiness 503), finishing requests and closing the database`);
    lifecycle.drain();
    setTimeout(() => {
      logger.error({ ms: since() }, `The server did not stop within ${EXIT_MS / 1000} s of ${signal}; exiting without waiting any longer.`);
      process.exit(1);
    }, EXIT_MS).unref();
    setTimeout(() => {
      const force = setTimeout(() => {
        logger.warn({ ms: since() }, `Requests did not finish within ${DRAIN_MS / 1000} s; closing their connections.`);
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }, DRAIN_MS);
      force.unref();
      // Event streams would hold server.close() for the whole drain: end them now, and their
      // connections once idle (the tablets reconnect to another instance, or poll).
      void changeStreams.close().finally(() => setImmediate(() => (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.()));
      // A keep-alive connection whose request just finished would otherwise hold server.close()
      // until the force timer: close connections as soon as they fall idle.
      const closeIdle = () => (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      closeIdle();
      const sweep = setInterval(closeIdle, 50);
      sweep.unref();
      server.close(async () => {
        clearTimeout(force);
        clearInterval(sweep);
        await store.close().catch((err) => logger.error({ err: { message: (err as Error).message } }, 'Closing the store failed'));
        logger.info({ ms: since() }, 'Stopped');
        process.exit(0);
      });
    }, shutdownDelayMs).unref();
  };

  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** PUBLIC_URL without a trailing slash, checked; http://localhost:PORT when unset. */
function publicUrlOf(raw: string | undefined, port: number): string {
  if (!raw) return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_URL is not a web address: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('PUBLIC_URL must start with http:// or https://');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

main().catch((err) => {
  logger.fatal({ err: { type: err?.name, message: err?.message, stack: err?.stack } }, `Passage could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
