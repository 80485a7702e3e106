/**
 * An in-process Passage server for tests: createApp over a store of its own, a clock the test
 * moves, captured log lines and mails, and accounts in every access state.
 *
 * The store (newTestStore, test/support/test-databases.ts): when the run has a PostgreSQL cluster
 * (scripts/test.mjs starts one whenever PostgreSQL is installed), a database copied from the
 * run's migrated template, dropped at close(); otherwise in-memory PGlite. A file whose
 * subject is the default store, or that is the PGlite half of a pair run on both (sign-in and
 * sign-in-postgres, device-key, events, events-revoked, the auth races of security, unique-races,
 * expensive-queries, attendance's S16, fuzz's bad input), asks for PGlite:
 * startTestServer({ store: 'pglite' }). Twelve of the HTTP files took 44-49 CPU-s on PGlite and
 * 24-27 on PostgreSQL copies (issue #27.5): PGlite runs PostgreSQL as WebAssembly in a thread of
 * the test's own process. TEST_STORE=pglite puts every file back on PGlite.
 */
import { createApp } from '../../../server/app';
import { createChangeStreams, type ChangeStreamOptions, type ChangeStreams } from '../../../server/http/change-streams';
import { randomBytes } from 'node:crypto';
import { createAccount } from '../../../server/auth/accounts';
import { issueToken, secretKey } from '../../../server/auth/tokens';
import type { DevicePolicy } from '../../../server/device-policy';
import { newTestStore } from '../../support/test-databases';
import type { EntityRecord, Store } from '../../../server/store/types';

export const APP = 'passage';
export const SECRET = 'integration-test-secret-0123456789abcdef';
export const PASSWORD = 'pass-word-2026';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type Who = 'admin' | 'coach' | 'noProfile' | 'pending' | 'rejected' | 'disabled';

const PEOPLE: Record<Who, { role: 'admin' | 'user' | 'guest'; fields: Record<string, unknown> }> = {
  admin: { role: 'admin', fields: { approved: true } },
  coach: { role: 'user', fields: { approved: true, requested_access_date: '2026-01-05', coach_type: 'lead_coach', phone: '555-0100' } },
  noProfile: { role: 'user', fields: {} },
  pending: { role: 'user', fields: { requested_access_date: '2026-01-05', approved: false } },
  rejected: { role: 'guest', fields: { requested_access_date: '2026-01-05', approved: false } },
  disabled: { role: 'user', fields: { approved: true, requested_access_date: '2026-01-05', disabled: true } },
};

export interface TestServer {
  appId: string;
  app: ReturnType<typeof createApp>;
  store: Store;
  /** The app's open event streams (issue #24.2); close() ends them. */
  changeStreams: ChangeStreams;
  clock: { ms: number };
  logs: string[];
  mails: Mail[];
  users: Record<Who, EntityRecord>;
  tokens: Record<Who | 'otherApp', string>;
  request(method: string, path: string, opts?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<Response>;
  /**
   * A token of a new session (issue #21: sid, auth_time, did), as a sign-in at the test clock's
   * time would give, without the password round trip. The tokens in `tokens` carry no session.
   */
  signIn(who: Who | EntityRecord, opts?: { deviceId?: string; version?: number }): Promise<{ token: string; sid: string }>;
  close(): Promise<void>;
}

/** A device id as the tablet makes them. */
export const newDeviceId = () => randomBytes(18).toString('base64url');

export interface TestServerOptions {
  distDir?: string;
  withPasswords?: boolean;
  /** A PostgreSQL database of the test's own choosing (use a fresh appId per run there); `store` is then not asked. */
  databaseUrl?: string;
  /**
   * Default 'postgres': a copy of the run's template when the run has a cluster, else in-memory
   * PGlite (see the top of this file). 'pglite' for a file whose subject is the default store.
   */
  store?: 'postgres' | 'pglite';
  appId?: string;
  /** PUBLIC_URL of the app (links in mails); createApp's default when unset. */
  publicUrl?: string;
  /** Longest a database statement may run (the store's default when unset). */
  statementTimeoutMs?: number;
  /** PIN_MIN_LENGTH / IDLE_LOCK_MINUTES of the app (createApp's defaults when unset). */
  devicePolicy?: Partial<DevicePolicy>;
  /** Keep-alive and coalescing of the event streams (createChangeStreams' defaults when unset). */
  changeStreams?: ChangeStreamOptions;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const appId = options.appId ?? APP;
  const clock = { ms: Date.parse('2026-11-22T09:00:00.000Z') };
  const timing = { now: () => clock.ms, statementTimeoutMs: options.statementTimeoutMs };
  const opened = await newTestStore({ ...timing, databaseUrl: options.databaseUrl, store: options.store });
  const store = opened.store;
  const logs: string[] = [];
  const mails: Mail[] = [];
  const now = () => new Date(clock.ms);
  const changeStreams = createChangeStreams(store, options.changeStreams);
  const app = createApp({
    changeStreams,
    store,
    appId,
    jwtSecret: SECRET,
    now,
    log: (m) => logs.push(m),
    mailer: async ({ to, subject, text }) => {
      mails.push({ to, subject, text });
    },
    distDir: options.distDir,
    publicUrl: options.publicUrl,
    devicePolicy: options.devicePolicy,
  });
  const users = {} as Record<Who, EntityRecord>;
  for (const [who, p] of Object.entries(PEOPLE) as [Who, (typeof PEOPLE)[Who]][]) {
    ({ user: users[who] } = await createAccount(store, appId, {
      email: `${who.toLowerCase()}@example.org`,
      password: options.withPasswords ? PASSWORD : undefined,
      full_name: `${who} person`,
      role: p.role,
      verified: true,
      fields: p.fields,
    }));
  }
  const key = secretKey(SECRET);
  const tokens = {} as Record<Who | 'otherApp', string>;
  for (const who of Object.keys(PEOPLE) as Who[]) tokens[who] = await issueToken(key, users[who].id, appId, now());
  tokens.otherApp = await issueToken(key, users.admin.id, 'another-app', now());

  return {
    appId,
    app,
    store,
    changeStreams,
    clock,
    logs,
    mails,
    users,
    tokens,
    request(method, path, opts = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
      return Promise.resolve(app.request(`http://localhost${path}`, { method, headers, body }));
    },
    async signIn(who, opts = {}) {
      const user = typeof who === 'string' ? users[who] : who;
      const sid = randomBytes(16).toString('base64url');
      const authTime = Math.floor(clock.ms / 1000);
      await store.createSession(appId, { sid, user_id: user.id, device_id: opts.deviceId ?? null, auth_time: authTime });
      const token = await issueToken(key, user.id, appId, now(), opts.version ?? 0, { sid, authTime, did: opts.deviceId });
      return { token, sid };
    },
    async close() {
      await changeStreams.close();
      await opened.close();
    },
  };
}

export const E = (entity: string, rest = '') => `/api/apps/${APP}/entities/${entity}${rest}`;
