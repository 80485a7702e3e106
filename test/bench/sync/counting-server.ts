/**
 * The server in-process for the sync bench: createApp over in-memory PGlite, an admin and a coach,
 * a seeded data set, and platform clients whose fetch calls app.fetch and counts requests.
 */
import { createApp } from '../../../server/app';
import { createAccount } from '../../../server/auth/accounts';
import { issueToken, secretKey } from '../../../server/auth/tokens';
import { createStore } from '../../../server/store/index';
import type { Store } from '../../../server/store/types';
import { createPlatformClient } from '../../../src/platform';
import type { PlatformClientLike } from '../../../src/data/platform-like';

export const APP = 'passage';
const SECRET = 'sync-bench-secret-0123456789abcdef0123';

export interface BenchServer {
  store: Store;
  coachId: string;
  requests: { count: number };
  coachClient: PlatformClientLike;
  adminClient: PlatformClientLike;
  close(): Promise<void>;
}

export async function startBenchServer(): Promise<BenchServer> {
  const store = await createStore({ dataDir: 'memory://' });
  const app = createApp({ store, appId: APP, jwtSecret: SECRET, log: () => {} });
  const make = (email: string, role: 'admin' | 'user') =>
    createAccount(store, APP, { email, role, verified: true, full_name: email, fields: { approved: true, requested_access_date: '2026-01-05' } }).then((r) => r.user);
  const admin = await make('admin@example.org', 'admin');
  const coach = await make('coach@example.org', 'user');
  const key = secretKey(SECRET);
  const tokens = { admin: await issueToken(key, admin.id, APP, new Date()), coach: await issueToken(key, coach.id, APP, new Date()) };
  const requests = { count: 0 };
  const client = (token: string) =>
    createPlatformClient({
      serverUrl: 'http://bench.test',
      appId: APP,
      getToken: () => token,
      originUrl: 'http://bench.test/',
      fetch: async (input, init) => {
        requests.count++;
        return app.fetch(new Request(input as RequestInfo, init));
      },
    }) as unknown as PlatformClientLike;
  return { store, coachId: coach.id, requests, coachClient: client(tokens.coach), adminClient: client(tokens.admin), close: () => store.close() };
}

/** Programs, sites, cohorts, participants and enrollments, written straight to the store. */
export async function seed(store: Store, n: { participants: number; cohorts: number; enrollments: number }): Promise<void> {
  const meta = { by: 'admin@example.org', byId: null };
  const [program] = await store.createMany(APP, 'Program', [{ program_name: 'Welding', active: true }], meta);
  const [site] = await store.createMany(APP, 'Site', [{ site_name: 'North', site_type: 'prison', active: true }], meta);
  const cohorts = await store.createMany(
    APP,
    'Cohort',
    Array.from({ length: n.cohorts }, (_, i) => ({ program_id: program.id, site_id: site.id, cohort_code: `W-N-${i}`, status: 'active', capacity: 20 })),
    meta,
  );
  const participantIds: string[] = [];
  for (let i = 0; i < n.participants; i += 1000) {
    const rows = await store.createMany(
      APP,
      'Participant',
      Array.from({ length: Math.min(1000, n.participants - i) }, (_, k) => ({
        first_name: `First${i + k}`,
        last_name: `Last${i + k}`,
        custody_status: 'in-custody',
        enrollment_date: '2026-01-02',
        phone: '555-0100',
      })),
      meta,
    );
    participantIds.push(...rows.map((r) => r.id));
  }
  for (let i = 0; i < n.enrollments; i += 1000) {
    await store.createMany(
      APP,
      'Enrollment',
      Array.from({ length: Math.min(1000, n.enrollments - i) }, (_, k) => ({
        participant_id: participantIds[(i + k) % participantIds.length],
        cohort_id: cohorts[(i + k) % cohorts.length].id,
        enrollment_status: 'active',
        intake_date: '2026-01-05',
      })),
      meta,
    );
  }
}
