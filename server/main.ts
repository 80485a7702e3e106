/**
 * `node --import tsx server/main.ts`: reads the environment, opens the store, seeds demo data on a
 * first start, serves the app and the API, and shuts down cleanly on SIGTERM/SIGINT.
 *
 * PORT (4173) · HOST (127.0.0.1) · DATA_DIR (./data) · DATABASE_URL (PostgreSQL; else embedded
 * PGlite in DATA_DIR) · APP_ID (passage) · JWT_SECRET (else generated once into DATA_DIR/jwt-secret)
 * · DEMO (1 = seed an empty database, 0 = never; default: only when HOST is loopback).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { DEFAULT_APP_ID } from '../shared/config';
import { createApp } from './app';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo/accounts';
import { seedDemo } from './demo/seed';
import { loadOrCreateSecret } from './http/secret-file';
import { createStore } from './store/index';

const env = process.env;
const port = Number(env.PORT || 4173);
const host = env.HOST || '127.0.0.1';
const dataDir = resolve(env.DATA_DIR || './data');
const appId = env.APP_ID || DEFAULT_APP_ID;
const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
// Demo accounts share a published password, so they never appear on a reachable host unless asked.
const demo = env.DEMO === '1' || (env.DEMO !== '0' && loopback);

async function main() {
  // 32 characters at least: a short HS256 secret can be brute-forced from any one token.
  if (env.JWT_SECRET && env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters (or unset it to use a generated one)');
  const store = await createStore({ dataDir, databaseUrl: env.DATABASE_URL || undefined });
  const jwtSecret = env.JWT_SECRET || loadOrCreateSecret(resolve(dataDir, 'jwt-secret'));
  const distDir = resolve('dist');
  if (!existsSync(resolve(distDir, 'index.html'))) console.warn('dist/ is not built: only the API and /login are served (run npm run build).');

  if (demo) {
    const summary = await seedDemo(store, appId, { now: new Date() });
    if (summary.seeded) console.log(`Demo data created: ${Object.entries(summary.counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
  }

  const app = createApp({ store, appId, jwtSecret, distDir });
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
    // 10 s for in-flight requests; after that idle keep-alive sockets must not hold the process.
    const force = setTimeout(() => {
      console.error('Requests did not finish within 10 s; closing anyway.');
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    }, 10_000);
    force.unref();
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

main().catch((err) => {
  console.error('Passage could not start:', err);
  process.exit(1);
});
