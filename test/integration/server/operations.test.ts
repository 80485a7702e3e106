/**
 * Issue #25.5, what an operator checks in-process: the health and readiness probes, 503 with
 * Retry-After when the database cannot be reached, the structured request log (fields present;
 * no password, token, e-mail or query string in it) and TRUST_PROXY over a real socket.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createAccount } from '../../../server/auth/accounts';
import { createLifecycle } from '../../../server/http/lifecycle';
import { createLogger } from '../../../server/http/logger';
import { createStore } from '../../../server/store/index';
import { createPostgresStore } from '../../../server/store/postgres-store';
import { openPostgres } from '../../../server/store/pg-client';
import { openPglite } from '../../../server/store/pglite-client';
import type { Store } from '../../../server/store/types';
import { freePort } from '../../support/processes';

const APP = 'passage';
const SECRET = 'operations-test-secret-0123456789abcdef';
const EMAIL = 'casey.operator@example.org';
const PASSWORD = 'correct-horse-2026';

let store: Store;
beforeAll(async () => {
  store = await createStore({ dataDir: 'memory://' });
  await createAccount(store, APP, { email: EMAIL, password: PASSWORD, full_name: 'Casey Operator', role: 'admin', verified: true, fields: { approved: true } });
});
afterAll(() => store.close());

/** A logger whose JSON lines land in an array. */
function capturedLogger(level = 'debug') {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const login = (app: ReturnType<typeof createApp>, password = PASSWORD, headers: Record<string, string> = {}) =>
  app.request(`/api/apps/${APP}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ email: EMAIL, password }) });

describe('health and readiness probes', () => {
  it('/healthz and /readyz answer 200, uncached, without a token; /readyz is 503 with Retry-After once draining', async () => {
    const lifecycle = createLifecycle();
    const app = createApp({ store, appId: APP, jwtSecret: SECRET, lifecycle });
    const health = await app.request('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('cache-control')).toBe('no-store');
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });
    expect(ready.headers.get('cache-control')).toBe('no-store');

    lifecycle.drain();
    const draining = await app.request('/readyz');
    expect(draining.status).toBe(503);
    expect(draining.headers.get('retry-after')).toBe('5');
    expect(await draining.json()).toEqual({ status: 'unavailable', reason: 'shutting_down' });
    expect((await app.request('/healthz')).status).toBe(200); // the process is still up
  });

  it('/readyz is 503 when the database does not answer within 2 s, /healthz stays 200', async () => {
    const stuck: Store = { ...store, ping: () => new Promise<void>(() => {}) };
    const app = createApp({ store: stuck, appId: APP, jwtSecret: SECRET });
    const started = Date.now();
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'database_timeout' });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect((await app.request('/healthz')).status).toBe(200);
  });
});

describe('database unreachable', () => {
  it('answers 503 DATABASE_UNAVAILABLE with Retry-After (never 500), and /readyz 503', async () => {
    // PostgreSQL on a port nobody listens on: every connection is refused.
    const port = await freePort();
    const down = createPostgresStore(openPostgres(`postgres://postgres@127.0.0.1:${port}/postgres`));
    const { logger, records } = capturedLogger();
    const app = createApp({ store: down, appId: APP, jwtSecret: SECRET, logger });
    try {
      const res = await login(app);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({ message: 'The server cannot reach its database. Try again in a moment.', code: 'DATABASE_UNAVAILABLE' });
      const ready = await app.request('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ reason: 'database_unreachable' });
      expect((await app.request('/healthz')).status).toBe(200);
      // Logged as a 503 request, not as an internal error.
      expect(records().filter((r) => r.msg === 'internal error')).toEqual([]);
      expect(records().find((r) => r.route === '/api/apps/:appId/auth/login')).toMatchObject({ status: 503, level: 'error' });
    } finally {
      await down.close();
    }
  });
});

describe('embedded database that cannot be opened again', () => {
  it('refuses every later statement as unavailable (503), not as a 500', async () => {
    // memory:// cannot be reopened after a timeout ends its thread (sql-client.ts).
    const sql = await openPglite('memory://', 300);
    try {
      await expect(sql.query('SELECT pg_sleep(3)')).rejects.toThrow(/statement timeout/);
      await expect(sql.query('SELECT 1')).rejects.toMatchObject({ kind: 'unavailable', code: 'DATABASE_UNAVAILABLE' });
    } finally {
      await sql.close();
    }
  });
});

describe('request log', () => {
  it('writes time, level, request id, method, route pattern, status and duration; no password, token, e-mail or query', async () => {
    const { logger, lines, records } = capturedLogger();
    const app = createApp({ store, appId: APP, jwtSecret: SECRET, logger });
    const signIn = await login(app, PASSWORD, { 'x-request-id': 'proxy-req-42' });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('x-request-id')).toBe('proxy-req-42');
    const { access_token } = (await signIn.json()) as { access_token: string };
    await login(app, 'wrong-password-123');
    const q = encodeURIComponent(JSON.stringify({ email: EMAIL, full_name: 'Casey Operator' }));
    const search = await app.request(`/api/apps/${APP}/entities/User?q=${q}`, { headers: { authorization: `Bearer ${access_token}`, cookie: 'session=abc' } });
    expect(search.status).toBe(200);
    const generated = search.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    // A header value that is not a plain token is replaced, not echoed.
    const odd = await app.request('/healthz', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const reqs = records().filter((r) => r.msg === 'request');
    expect(reqs.length).toBe(4);
    for (const r of reqs) {
      expect(Object.keys(r).sort()).toEqual(['level', 'method', 'ms', 'msg', 'req_id', 'route', 'status', 'time']);
      expect(Date.parse(String(r.time))).not.toBeNaN();
      expect(typeof r.ms).toBe('number');
    }
    expect(reqs[0]).toMatchObject({ level: 'info', req_id: 'proxy-req-42', method: 'POST', route: '/api/apps/:appId/auth/login', status: 200 });
    expect(reqs[1]).toMatchObject({ method: 'POST', route: '/api/apps/:appId/auth/login', status: 401 });
    expect(reqs[2]).toMatchObject({ req_id: generated, method: 'GET', route: '/api/apps/:appId/entities/:entity', status: 200 });
    expect(reqs[3]).toMatchObject({ route: '/healthz', level: 'debug' });

    const all = lines.join('\n');
    for (const secret of [PASSWORD, 'wrong-password-123', access_token, access_token.split('.')[2], EMAIL, 'casey.operator', 'Casey Operator', 'session=abc', '?q=', 'example.org']) {
      expect(all).not.toContain(secret);
    }
  });

  it('redacts secret keys in anything logged with an object', () => {
    const { logger, lines } = capturedLogger();
    logger.info({ headers: { authorization: 'Bearer abc.def.ghi', cookie: 'sid=1' }, body: { email: EMAIL, password: PASSWORD } }, 'something');
    expect(lines.join('')).not.toMatch(/abc\.def|sid=1|casey|correct-horse/);
    expect(lines.join('')).toContain('[redacted]');
  });
});

describe('TRUST_PROXY over a real socket', () => {
  const servers: ServerType[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  /** Fails one sign-in through a server with this TRUST_PROXY and returns the address it counted. */
  async function countedSource(trustProxy: string | undefined, forwardedFor: string | undefined, email: string): Promise<string[]> {
    await createAccount(store, APP, { email, password: PASSWORD, full_name: 'Proxy Case', role: 'user', verified: true, fields: {} });
    const app = createApp({ store, appId: APP, jwtSecret: SECRET, trustProxy });
    const server = await new Promise<ServerType>((res) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => res(s));
    });
    servers.push(server);
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/apps/${APP}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: JSON.stringify({ email, password: 'not-the-password' }),
    });
    expect(res.status).toBe(401);
    const auth = await store.getAuth(APP, email);
    return Object.keys((auth?.login_failures as Record<string, unknown>) ?? {});
  }

  it('a direct client with a forged X-Forwarded-For is counted by its socket address when it is not a listed proxy', async () => {
    expect(await countedSource('10.0.0.0/8,192.168.1.5', '203.0.113.9', 'direct@example.org')).toEqual(['127.0.0.1']);
  });

  it('through a listed proxy the forwarded client address counts; a spoofed entry before it does not', async () => {
    // The client sent "X-Forwarded-For: 198.51.100.1"; the proxy (127.0.0.1) appended the real one.
    expect(await countedSource('127.0.0.1', '198.51.100.1, 203.0.113.7', 'proxied@example.org')).toEqual(['203.0.113.7']);
  });

  it('TRUST_PROXY=1 keeps its meaning: the last hop is the proxy, the address it appended counts', async () => {
    expect(await countedSource('1', '198.51.100.1, 203.0.113.8', 'onehop@example.org')).toEqual(['203.0.113.8']);
  });

  it('without TRUST_PROXY the header is ignored', async () => {
    expect(await countedSource(undefined, '203.0.113.10', 'noproxy@example.org')).toEqual(['127.0.0.1']);
  });
});
