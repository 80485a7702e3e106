/**
 * PostgreSQL databases for tests whose subject is not the store (issue #27.5): the sync engine
 * against the real server in process, the server's HTTP tests (test/integration/server/harness.ts,
 * mail-smtp, sdk) and the browser tests' servers. When the run has a PostgreSQL cluster
 * (TEST_DATABASE_URL, which scripts/test.mjs sets whenever PostgreSQL is installed: one cluster
 * for the browser run, one for the rest), each such server gets a database of its own, copied
 * from a template this global setup makes once per vitest run; otherwise they run on PGlite as
 * before. newTestStore opens a store on such a copy (or on in-memory PGlite); newTestDatabase
 * gives the copy itself, for a server started as a process.
 *
 * Why: the same convergence run took 56 CPU-s on in-memory PGlite and 15 on PostgreSQL, a
 * browser test's server started in 4.3 CPU-s on PGlite (wasm compile, the dump, the demo seed's
 * scrypt password hashes) against about 1 from a seeded template, and twelve HTTP test files took
 * 44-49 CPU-s on PGlite against 24-27; a test run is bound by CPU.
 *
 * What stays on PGlite, so the default store (what `npm start` runs) keeps its end-to-end tests:
 * every Store contract test runs on both stores (test/integration/store); the HTTP files that are
 * the PGlite half of a pair run on both stores (sign-in, device-key, events, events-revoked, the
 * auth races, unique-races, expensive-queries, attendance, and fuzz's bad input) ask for it
 * (startTestServer({ store: 'pglite' })); the processes they start run on it; and so do the
 * browser tests that choose it (setupHarness({ store: 'pglite' }): the walk-through and the
 * offline day).
 * TEST_STORE=pglite puts every one of them back on PGlite.
 *
 *   const db = await newTestDatabase('demo');   // null: no cluster in this run, use PGlite
 *   … DATABASE_URL: db.url …
 *   await db.drop();
 *
 *   const opened = await newTestStore();         // in process: opened.store, then opened.close()
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { CreateStoreOptions } from '../../server/store/index';
import type { Store } from '../../server/store/types';

/** What the global setup made: the cluster's URL and the two template databases' names. */
interface Templates {
  url: string;
  /** Migrated, no rows: what a new server finds. */
  empty: string;
  /** Migrated and seeded with the demo data (server/demo/seed.ts), as a first `npm start` leaves it. */
  demo: string;
  /** The demo seed's "now" (ISO): its running cohort meets on that day (server/demo/builders.ts). */
  demoSeededAt: string;
}

const ENV = 'PASSAGE_TEST_PG_TEMPLATES';

function databaseUrl(cluster: string, name: string): string {
  const u = new URL(cluster);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(cluster: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: cluster });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function templates(): Templates | null {
  const raw = process.env[ENV];
  return raw ? (JSON.parse(raw) as Templates) : null;
}

export interface TestDatabase {
  url: string;
  /** For a copy of the demo template: when its demo data was seeded (Templates.demoSeededAt). */
  seededAt?: Date;
  /** Removes the database, ending its sessions; a second call does nothing. */
  drop(): Promise<void>;
}

/**
 * A database of its own on the cluster at `cluster` (a postgres:// URL of any of its databases),
 * named `prefix` and a random suffix, empty or a copy of `template`: for a test that changes what
 * other suites on a shared cluster rely on, or needs a database nobody else writes to.
 */
export async function createDatabase(cluster: string, prefix: string, template?: string): Promise<TestDatabase> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await admin(cluster, (c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  let dropped = false;
  return {
    url: databaseUrl(cluster, name),
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin(cluster, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * A new database of its own, copied from the run's template ('empty' or 'demo'), or null when the
 * run has no PostgreSQL (then the caller uses PGlite).
 */
export async function newTestDatabase(kind: 'empty' | 'demo'): Promise<TestDatabase | null> {
  const t = templates();
  if (!t) return null;
  const copy = await createDatabase(t.url, t.empty.replace(/_empty$/, ''), t[kind]);
  return kind === 'demo' ? { ...copy, seededAt: new Date(t.demoSeededAt) } : copy;
}

/** A store newTestStore opened; close() closes it and drops its database copy, if it has one. */
export interface TestStore {
  store: Store;
  close(): Promise<void>;
}

/**
 * A migrated, empty store for a test whose subject is not the store: on a copy of the run's
 * template when the run has a cluster, else in-memory PGlite. `store: 'pglite'` asks for PGlite,
 * and a `databaseUrl` is used as given (a test that shares its database with a second instance).
 */
export async function newTestStore(options: Omit<CreateStoreOptions, 'dataDir'> & { store?: 'postgres' | 'pglite' } = {}): Promise<TestStore> {
  const { store: kind, ...storeOptions } = options;
  // Imported here, not above: the browser tests take newTestDatabase without the server's store.
  const { createStore } = await import('../../server/store/index');
  const copy = !storeOptions.databaseUrl && kind !== 'pglite' ? await newTestDatabase('empty') : null;
  const databaseUrl = storeOptions.databaseUrl ?? copy?.url;
  let store: Store;
  try {
    store = await createStore(databaseUrl ? { ...storeOptions, databaseUrl } : { ...storeOptions, dataDir: 'memory://' });
  } catch (err) {
    await copy?.drop();
    throw err;
  }
  return {
    store,
    async close() {
      await store.close();
      await copy?.drop();
    },
  };
}

/**
 * Vitest global setup: the two templates, made by the store's own migrations and the demo seed,
 * named after this process so two vitest runs on one cluster never share one (and made once when
 * two projects of one run set them up). The teardown drops them and every database made from them
 * that a test left behind.
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  const cluster = process.env.TEST_DATABASE_URL;
  if (!cluster || process.env.TEST_STORE === 'pglite') return;
  // Vitest runs a global setup once per project: a run of two projects (the browser lane's e2e and
  // integration, scripts/test-lane.mjs) makes the templates once, and the first teardown drops them.
  if (templates()?.url === cluster) return;
  const prefix = `passage_t${process.pid}`;
  const seededAt = new Date();
  const t: Templates = { url: cluster, empty: `${prefix}_empty`, demo: `${prefix}_demo`, demoSeededAt: seededAt.toISOString() };
  const { createStore } = await import('../../server/store/index');
  const { seedDemo } = await import('../../server/demo/seed');
  await admin(cluster, (c) => c.query(`CREATE DATABASE ${t.empty}`));
  const empty = await createStore({ databaseUrl: databaseUrl(cluster, t.empty), poolSize: 2 });
  await empty.close();
  await admin(cluster, (c) => c.query(`CREATE DATABASE ${t.demo} TEMPLATE ${t.empty}`));
  const demo = await createStore({ databaseUrl: databaseUrl(cluster, t.demo), poolSize: 2 });
  try {
    await seedDemo(demo, process.env.APP_ID || 'passage', { now: seededAt });
  } finally {
    await demo.close();
  }
  process.env[ENV] = JSON.stringify(t);
  return async () => {
    delete process.env[ENV];
    await admin(cluster, async (c) => {
      const rows = (await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE '${prefix}\\_%'`)).rows;
      const templateNames = [t.empty, t.demo];
      const copies = rows.map((r) => r.datname).filter((name) => !templateNames.includes(name));
      // The copies first: a template being copied cannot be dropped.
      for (const name of [...copies, ...templateNames]) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  };
}
