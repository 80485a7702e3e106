import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../../server/store/postgres-store';
import { openPostgres } from '../../../server/store/pg-client';
import type { FeedPosition, Store } from '../../../server/store/types';
import { registerChangeFeedContract } from './change-feed-contract';
import { SKIP_REASON, acquirePostgres, postgresInstalled } from './pg-test-cluster';
import { createDatabase, type TestDatabase } from '../../support/test-databases';

if (!postgresInstalled) console.warn(`Skipping the PostgreSQL change feed: ${SKIP_REASON}`);

describe.skipIf(!postgresInstalled)('PostgreSQL', () => {
  let url = '';
  let release = () => {};
  const databases: TestDatabase[] = [];
  beforeAll(async () => {
    ({ url, release } = await acquirePostgres());
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    release();
  });

  /** A database of its own on the test cluster (dropped at the end). */
  async function isolatedUrl(): Promise<string> {
    const database = await createDatabase(url, 'feed');
    databases.push(database);
    return database.url;
  }

  registerChangeFeedContract('PostgreSQL', async (isolated) => {
    const sql = openPostgres(isolated ? await isolatedUrl() : url);
    const store = createPostgresStore(sql);
    await store.migrate();
    return { store, sql, close: () => store.close() };
  });

  describe('S17 concurrent writers', () => {
    let store: Store;
    beforeAll(async () => {
      store = createPostgresStore(openPostgres(url));
      await store.migrate();
    });
    afterAll(() => store.close());
    const meta = { by: 'admin@example.org', byId: 'admin' };

    async function readAll(app: string, from: FeedPosition) {
      const ids: string[] = [];
      let at = from;
      for (;;) {
        const page = await store.readChanges(app, at, 100);
        ids.push(...page.changes.map((c) => c.id));
        at = page.next;
        if (!page.more) return { ids, at };
      }
    }

    it('S17 a slow transaction that began first and commits after a fast one is still delivered', async () => {
      // Writes of one app queue behind its audit chain lock (S19), so the slow and the fast writer
      // are in two apps (two academies on one PostgreSQL): transaction ids and the snapshot's xmin
      // are the cluster's, so each app's feed must still wait for the other's open transaction.
      const slowApp = `feed-${randomUUID().slice(0, 8)}`;
      const fastApp = `feed-${randomUUID().slice(0, 8)}`;
      const [slowRecord] = await store.createMany(slowApp, 'Participant', [{ first_name: 'Slow' }], meta);
      const slowStart = (await readAll(slowApp, { txid: '0', seq: '0' })).at;
      const fastStart = (await readAll(fastApp, { txid: '0', seq: '0' })).at;

      // The slow writer: its own connection, a transaction that writes first and stays open.
      const slow = new pg.Client({ connectionString: url });
      await slow.connect();
      try {
        await slow.query('BEGIN');
        await slow.query(`UPDATE records SET data = data || '{"first_name": "Slow, renamed"}'::jsonb WHERE app = $1 AND id = $2`, [slowApp, slowRecord.id]);
        // The fast writer commits while the slow one is open: its txid is higher, its commit earlier.
        const fast = await store.create(fastApp, 'Participant', { first_name: 'Fast' }, meta);

        // Tablets reading now get neither: the fast change waits behind the open transaction, and
        // the slow app's cursor does not move past it (a cursor past it would skip it for ever).
        const fastDuring = await readAll(fastApp, fastStart);
        const slowDuring = await readAll(slowApp, slowStart);
        expect(fastDuring.ids).toEqual([]);
        expect(slowDuring.ids).toEqual([]);

        await slow.query('COMMIT');
        expect((await readAll(slowApp, slowDuring.at)).ids).toEqual([slowRecord.id]);
        expect((await readAll(fastApp, fastDuring.at)).ids).toEqual([fast.id]);
        const rows = await store.readChanges(slowApp, slowStart, 10);
        expect(rows.changes.find((c) => c.id === slowRecord.id)?.record?.first_name).toBe('Slow, renamed');
      } finally {
        await slow.end();
      }
    });

    it('S17 parallel writers through the store: every change is delivered once, none skipped, across pages', async () => {
      const app = `feed-${randomUUID().slice(0, 8)}`;
      const start = (await store.readChanges(app, null, 1)).next;
      const seen: string[] = [];
      let at = start;
      const writers = Array.from({ length: 8 }, (_, w) =>
        (async () => {
          const made: string[] = [];
          for (let i = 0; i < 10; i++) made.push((await store.create(app, 'Participant', { first_name: `W${w}-${i}` }, meta)).id);
          return made;
        })(),
      );
      // A tablet reading in small pages while the writers run.
      let done = false;
      const all = Promise.all(writers).finally(() => (done = true));
      while (!done) {
        const page = await store.readChanges(app, at, 7);
        seen.push(...page.changes.map((c) => c.id));
        at = page.next;
      }
      const made = (await all).flat();
      const rest = await readAll(app, at);
      seen.push(...rest.ids);
      expect(seen.length).toBe(made.length);
      expect(new Set(seen)).toEqual(new Set(made));
    });
  });
});
