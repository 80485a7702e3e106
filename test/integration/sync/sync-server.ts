/**
 * The real Passage server in-process for sync tests: createApp over a PostgreSQL database of its own
 * when the run has a cluster (test/support/test-databases.ts: the subject here is the engine, and
 * the same convergence run costs 15 CPU-s there against 56 on PGlite), else in-memory PGlite; an
 * admin and an approved coach, and platform clients whose fetch calls app.fetch — optionally through a
 * fault injector that can apply a request and then lose its answer, like a dropped connection.
 */
import { createApp } from '../../../server/app';
import { createAccount } from '../../../server/auth/accounts';
import { issueToken, secretKey } from '../../../server/auth/tokens';
import type { EntityRecord, Store } from '../../../server/store/types';
import { createPlatformClient } from '../../../src/platform';
import { newTestStore } from '../../support/test-databases';
import type { PlatformClientLike } from '../../../src/data/platform-like';

export const APP = 'passage';
const SECRET = 'sync-integration-secret-0123456789abcdef';

export type FaultKind = 'none' | 'offline' | 'drop-response' | 'server-error' | 'timeout';

/** Decides, per request, whether and how it fails; a promise holds the request until it settles. */
export type FaultPlan = (req: Request) => FaultKind | Promise<FaultKind>;

export interface SyncServer {
  app: ReturnType<typeof createApp>;
  store: Store;
  admin: EntityRecord;
  coach: EntityRecord;
  tokens: { admin: string; coach: string };
  /** A platform client for `who`; `faults` may fail its requests; `token` overrides the login. */
  client(who: 'admin' | 'coach', faults?: FaultPlan, token?: () => string): PlatformClientLike;
  /** Rows of an entity as the server has them (admin view), sorted by id. */
  rows(entity: string): Promise<EntityRecord[]>;
  close(): Promise<void>;
}

class NetworkFailure extends TypeError {}

export async function startSyncServer(): Promise<SyncServer> {
  const opened = await newTestStore();
  const store = opened.store;
  const app = createApp({ store, appId: APP, jwtSecret: SECRET, log: () => {} });
  const account = (email: string, role: 'admin' | 'user', fields: Record<string, unknown>) =>
    createAccount(store, APP, { email, role, verified: true, full_name: email.split('@')[0], fields }).then((r) => r.user);
  const admin = await account('admin@example.org', 'admin', { approved: true });
  const coach = await account('coach@example.org', 'user', { approved: true, requested_access_date: '2026-01-05' });
  const key = secretKey(SECRET);
  const tokens = { admin: await issueToken(key, admin.id, APP, new Date()), coach: await issueToken(key, coach.id, APP, new Date()) };

  const fetchVia = (faults?: FaultPlan): typeof fetch => async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    const fault = (await faults?.(req.clone())) ?? 'none';
    if (fault === 'offline' || fault === 'timeout') throw new NetworkFailure('fetch failed');
    const res = await app.fetch(req);
    if (fault === 'drop-response') throw new NetworkFailure('fetch failed');
    if (fault === 'server-error') return new Response(JSON.stringify({ message: 'Bad gateway' }), { status: 502 });
    return res;
  };

  return {
    app,
    store,
    admin,
    coach,
    tokens,
    client: (who, faults, token) =>
      createPlatformClient({
        serverUrl: 'http://passage.test',
        appId: APP,
        getToken: token ?? (() => tokens[who]),
        fetch: fetchVia(faults),
        originUrl: 'http://passage.test/',
      }) as unknown as PlatformClientLike,
    rows: async (entity) => (await store.list(APP, entity, { sort: 'id', limit: 5000 })) as EntityRecord[],
    close: () => opened.close(),
  };
}
