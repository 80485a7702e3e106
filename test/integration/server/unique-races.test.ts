/**
 * Issue #25.2: uniqueness the database enforces, under parallel requests: on PGlite, on one
 * PostgreSQL instance and through two app instances sharing one PostgreSQL (as behind a load
 * balancer). Cohort codes (trimmed, any case), user e-mails at sign-up, and the demo seed.
 * (Attendance pairs, the third unique rule, are raced the same way in attendance.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemo } from '../../../server/demo/seed';
import { DEMO_ACCOUNTS } from '../../../server/demo/accounts';
import { createStore } from '../../../server/store/index';
import type { Store } from '../../../server/store/types';
import { acquirePostgres, postgresInstalled, SKIP_REASON } from '../store/pg-test-cluster';
import { SECRET, startTestServer, type TestServer } from './harness';

type App = ReturnType<typeof createApp>;

interface Setup {
  s: TestServer;
  /** The app instances requests alternate between (one, or two over one database). */
  apps: App[];
  /** A store per instance (for the seed race). */
  stores: Store[];
  appId: string;
}

const json = async (res: Response | Promise<Response>) => {
  const r = await res;
  return { status: r.status, body: (await r.json()) as any };
};

function call(setup: Setup, n: number, method: string, path: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return json(setup.apps[n % setup.apps.length].request(`http://localhost/api/apps/${setup.appId}/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  }));
}

async function codes(setup: Setup): Promise<string[]> {
  const cohorts = await setup.s.store.list(setup.appId, 'Cohort', { fields: ['cohort_code'], limit: 5000 });
  return cohorts.map((c) => String(c.cohort_code));
}

const count = (values: string[], key: string) => values.filter((v) => v.trim().toLowerCase() === key.toLowerCase()).length;

function uniqueCases(label: string, open: () => Promise<Setup>, close: () => Promise<void>) {
  describe(label, () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await open();
    }, 120_000);
    afterAll(close);

    it('30 parallel pairs creating one cohort code: one cohort per code, the other answered 409 DUPLICATE_VALUE', async () => {
      const admin = setup.s.tokens.admin;
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => [
          call(setup, 2 * i, 'POST', 'entities/Cohort', admin, { program_id: 'p', site_id: 's', cohort_code: `RACE-${i}` }),
          call(setup, 2 * i + 1, 'POST', 'entities/Cohort', admin, { program_id: 'p', site_id: 's', cohort_code: ` race-${i} ` }),
        ]).flat(),
      );
      const stored = await codes(setup);
      for (let i = 0; i < 30; i++) {
        const pair = answers.slice(2 * i, 2 * i + 2);
        expect(pair.map((a) => a.status).sort(), `pair ${i}`).toEqual([200, 409]);
        const refused = pair.find((a) => a.status === 409)!;
        expect(refused.body).toMatchObject({ code: 'DUPLICATE_VALUE', field: 'cohort_code' });
        expect(refused.body.message).toMatch(new RegExp(`^A cohort with the code (RACE-${i}|race-${i}) already exists\\. Cohort codes must be unique\\.$`));
        expect(count(stored, `race-${i}`), `cohorts stored with code RACE-${i}`).toBe(1);
      }
    });

    it('parallel bulk creates sharing one code: one is stored whole, the other refused and writes nothing', async () => {
      const admin = setup.s.tokens.admin;
      const batch = (tag: string) => [
        { program_id: 'p', site_id: 's', cohort_code: `BULK-${tag}-1` },
        { program_id: 'p', site_id: 's', cohort_code: 'BULK-SHARED' },
        { program_id: 'p', site_id: 's', cohort_code: `BULK-${tag}-2` },
      ];
      const [a, b] = await Promise.all([call(setup, 0, 'POST', 'entities/Cohort/bulk', admin, batch('a')), call(setup, 1, 'POST', 'entities/Cohort/bulk', admin, batch('b'))]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const [won, lost] = a.status === 200 ? ['a', 'b'] : ['b', 'a'];
      expect((a.status === 409 ? a : b).body).toMatchObject({ code: 'DUPLICATE_VALUE', field: 'cohort_code' });
      const stored = await codes(setup);
      expect(count(stored, 'BULK-SHARED')).toBe(1);
      expect(count(stored, `BULK-${won}-1`) + count(stored, `BULK-${won}-2`)).toBe(2);
      expect(count(stored, `BULK-${lost}-1`) + count(stored, `BULK-${lost}-2`), 'nothing of the refused bulk').toBe(0);
    });

    it('parallel updates giving two cohorts one code: one is renamed, the other answered 409 and unchanged', async () => {
      const admin = setup.s.tokens.admin;
      const pairs = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const one = await call(setup, 0, 'POST', 'entities/Cohort', admin, { program_id: 'p', site_id: 's', cohort_code: `UPD-${i}-A` });
          const two = await call(setup, 1, 'POST', 'entities/Cohort', admin, { program_id: 'p', site_id: 's', cohort_code: `UPD-${i}-B` });
          return [one.body.id as string, two.body.id as string];
        }),
      );
      const answers = await Promise.all(
        pairs.flatMap(([one, two], i) => [
          call(setup, 0, 'PUT', `entities/Cohort/${one}`, admin, { cohort_code: `UPD-${i}` }),
          call(setup, 1, 'PUT', `entities/Cohort/${two}`, admin, { cohort_code: `upd-${i}` }),
        ]),
      );
      const stored = await codes(setup);
      for (let i = 0; i < 10; i++) {
        const pair = answers.slice(2 * i, 2 * i + 2);
        expect(pair.map((a) => a.status).sort(), `pair ${i}`).toEqual([200, 409]);
        expect(pair.find((a) => a.status === 409)!.body).toMatchObject({ code: 'DUPLICATE_VALUE', field: 'cohort_code' });
        expect(count(stored, `upd-${i}`)).toBe(1);
        expect(count(stored, `UPD-${i}-A`) + count(stored, `UPD-${i}-B`), 'the refused one keeps its code').toBe(1);
      }
    });

    it('10 parallel sign-ups with one new e-mail: one User and one auth record; the others 409 REGISTRATION_PENDING', async () => {
      const email = `racer-${Math.random().toString(36).slice(2, 8)}@example.org`;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          call(setup, n, 'POST', 'auth/register', null, { email: n % 2 ? email.toUpperCase() : email, password: `correct-horse-${n}`, full_name: `Racer ${n}` }),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 200)) {
        expect(refused).toMatchObject({ status: 409, body: { code: 'REGISTRATION_PENDING' } });
      }
      const users = await setup.s.store.list(setup.appId, 'User', { q: { email }, limit: 100 });
      expect(users).toHaveLength(1);
      const auth = await setup.s.store.getAuth(setup.appId, email);
      expect(auth?.user_id).toBe(users[0].id);
    });

    it('two demo seeds started together on an empty app: one set of demo data', async () => {
      const demoApp = `${setup.appId}-demo`;
      const now = new Date('2026-11-22T09:00:00.000Z');
      const stores = [setup.stores[0], setup.stores[setup.stores.length - 1]];
      const runs = await Promise.all(stores.map((store) => seedDemo(store, demoApp, { now })));
      expect(runs.map((r) => r.seeded).sort()).toEqual([false, true]);
      const seeded = runs.find((r) => r.seeded)!;
      expect(await setup.s.store.count(demoApp, 'User')).toBe(DEMO_ACCOUNTS.length);
      expect(await setup.s.store.count(demoApp, 'Cohort')).toBe(seeded.counts.Cohort);
      expect(await setup.s.store.count(demoApp, 'Participant')).toBe(seeded.counts.Participant);
    }, 120_000);
  });
}

const newAppId = (tag: string) => `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

{
  let s: TestServer;
  uniqueCases(
    'on PGlite',
    async () => {
      s = await startTestServer({ withPasswords: true, store: 'pglite' });
      return { s, apps: [s.app], stores: [s.store], appId: s.appId };
    },
    async () => s?.close(),
  );
}

describe.skipIf(!postgresInstalled)(`PostgreSQL ${postgresInstalled ? '' : `(${SKIP_REASON})`}`, () => {
  let s: TestServer;
  let second: Store | undefined;
  let release = () => {};
  uniqueCases(
    'one app instance',
    async () => {
      const pg = await acquirePostgres();
      release = pg.release;
      const appId = newAppId('uniq1');
      s = await startTestServer({ databaseUrl: pg.url, appId, withPasswords: true });
      return { s, apps: [s.app], stores: [s.store], appId };
    },
    async () => {
      await s?.close();
      release();
    },
  );

  let s2: TestServer;
  let release2 = () => {};
  uniqueCases(
    'two app instances on one database',
    async () => {
      const pg = await acquirePostgres();
      release2 = pg.release;
      const appId = newAppId('uniq2');
      s2 = await startTestServer({ databaseUrl: pg.url, appId, withPasswords: true });
      // A second server process, as behind a load balancer: its own pool, the same database.
      second = await createStore({ databaseUrl: pg.url, now: () => s2.clock.ms });
      const other = createApp({ store: second, appId, jwtSecret: SECRET, now: () => new Date(s2.clock.ms), log: () => undefined, mailer: async () => undefined });
      return { s: s2, apps: [s2.app, other], stores: [s2.store, second], appId };
    },
    async () => {
      await second?.close();
      await s2?.close();
      release2();
    },
  );
});
