/**
 * `node --import tsx server/main.ts`: reads the environment, opens the store, seeds demo data on a
 * first start, serves the app and the API, and shuts down cleanly on SIGTERM/SIGINT.
 *
 * PORT (4173) · HOST (127.0.0.1) · DATA_DIR (./data) · DATABASE_URL (PostgreSQL; else embedded
 * PGlite in DATA_DIR) · APP_ID (passage) · JWT_SECRET (else generated once into DATA_DIR/jwt-secret)
 * · DEMO (1 = seed an empty database, 0 = never; default: only when HOST is loopback)
 * · PUBLIC_URL (the address users open, for links in mails; default http://localhost:PORT)
 * · TRUST_PROXY (1 = behind a reverse proxy: the client address comes from X-Forwarded-For)
 * · STATEMENT_TIMEOUT_MS (longest a database statement may run; default 30000)
 * · PIN_MIN_LENGTH (4–12, default 6) · IDLE_LOCK_MINUTES (above 0, at most 30, default 15): the
 *   device policy sent with each device key (device-policy.ts); out of range, the server refuses to start.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { DEFAULT_APP_ID } from '../shared/config';
import { createApp } from './app';
import { createChangeStreams } from './http/change-streams';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo/accounts';
import { devicePolicyFromEnv } from './device-policy';
import { seedDemo } from './demo/seed';
import { loadOrCreateSecret } from './http/secret-file';
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
const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
// Demo accounts share a published password, so they never appear on a reachable host unless asked.
const demo = env.DEMO === '1' || (env.DEMO !== '0' && loopback);

async function main() {
  // 32 characters at least: a short HS256 secret can be brute-forced from any one token.
  if (env.JWT_SECRET && env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters (or unset it to use a generated one)');
  if (statementTimeoutMs !== undefined && !(Number.isInteger(statementTimeoutMs) && statementTimeoutMs >= 100)) {
    throw new Error('STATEMENT_TIMEOUT_MS must be a whole number of milliseconds, at least 100');
  }
  const devicePolicy = devicePolicyFromEnv(env);
  const store = await createStore({ dataDir, databaseUrl: env.DATABASE_URL || undefined, statementTimeoutMs });
  const jwtSecret = env.JWT_SECRET || loadOrCreateSecret(resolve(dataDir, 'jwt-secret'));
  const distDir = resolve('dist');
  if (!existsSync(resolve(distDir, 'index.html'))) console.warn('dist/ is not built: only the API and /login are served (run npm run build).');

  if (demo) {
    const summary = await seedDemo(store, appId, { now: new Date() });
    if (summary.seeded) console.log(`Demo data created: ${Object.entries(summary.counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
  }

  // Issue #24.2: the open event streams, ended first at shutdown (they never finish on their own).
  const changeStreams = createChangeStreams(store);
  const app = createApp({ store, appId, jwtSecret, distDir, publicUrl, trustProxy: env.TRUST_PROXY === '1', devicePolicy, changeStreams });
  const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
    const shown = host.includes(':') ? `[${host}]` : host;
    console.log(`Passage is running at http://${shown}:${info.port}/`);
    if (demo) {
      console.log(`Demo accounts (password ${DEMO_PASSWORD}):`);
      for (const a of DEMO_ACCOUNTS) console.log(`  ${a.email.padEnd(22)} ${a.state}`);
    }
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests and closing the database…`);
    // 7 s for in-flight requests, then their connections are closed. Whatever still runs after
    // 9.5 s (a statement stuck in the database) does not keep the process: it exits anyway, and
    // the unfinished transaction is rolled back as after a crash.
    const force = setTimeout(() => {
      console.error('Requests did not finish within 7 s; closing their connections.');
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    }, 7_000);
    force.unref();
    setTimeout(() => {
      console.error('The database did not close within 9.5 s; exiting without waiting for it.');
      process.exit(1);
    }, 9_500).unref();
    // Event streams would hold server.close() for the whole grace: end them now, and their
    // connections once idle (the tablets reconnect to another instance, or poll).
    void changeStreams.close().finally(() => setImmediate(() => (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.()));
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    server.close(async () => {
      clearTimeout(force);
      await store.close().catch((err) => console.error('Closing the store failed:', err));
      process.exit(0);
    });
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
  console.error('Passage could not start:', err);
  process.exit(1);
});
