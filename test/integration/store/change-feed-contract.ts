/**
 * Issue #24.1, docs/design.md S17: the change feed's storage (server/store/feed-sql.ts), the same
 * cases on PGlite and on PostgreSQL: commit order and paging, tombstones, pruning, and a database
 * made before the feed existed. The concurrent-writer case needs two connections, so it lives in
 * change-feed-postgres.test.ts (PGlite has one connection: its statements run one at a time, so a
 * transaction can never be open while another commits).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient } from '../../../server/store/sql-client';
import type { FeedPosition, Store } from '../../../server/store/types';

export interface FeedFixture {
  store: Store;
  /** The store's own connection(s), for what no Store method does (dropping the feed to simulate an old database). */
  sql: SqlClient;
  close(): Promise<void>;
}

const meta = { by: 'admin@example.org', byId: 'admin' };
const START: FeedPosition = { txid: '0', seq: '0' };

/** Every change after `from`, following pages of `limit`; the last position. */
async function readAll(store: Store, app: string, from: FeedPosition, limit = 1000) {
  const changes: Array<{ entity: string; id: string; deleted: boolean; name?: unknown }> = [];
  let at = from;
  let pages = 0;
  for (;;) {
    const page = await store.readChanges(app, at, limit);
    pages++;
    changes.push(...page.changes.map((c) => ({ entity: c.entity, id: c.id, deleted: c.record === null, name: c.record?.first_name })));
    at = page.next;
    if (!page.more) return { changes, at, pages };
  }
}

/**
 * `open(true)`: a database of its own (the migration case drops the feed's table, which on a shared
 * PostgreSQL database would pull it from under other tests).
 */
export function registerChangeFeedContract(name: string, open: (isolated?: boolean) => Promise<FeedFixture>): void {
  describe(`change feed storage (${name})`, () => {
    const app = () => `feed-${randomUUID().slice(0, 8)}`;
    // One database for the cases that keep to their own app id; closed after all of them.
    let shared: FeedFixture;
    beforeAll(async () => {
      shared = await open();
    });
    afterAll(() => shared?.close());
    const openShared = async (): Promise<FeedFixture> => ({ ...shared, close: async () => {} });

    it('S17 answers changes in commit order, each record once with its latest row, in pages', async () => {
      const f = await openShared();
      try {
        const a = app();
        const start = (await f.store.readChanges(a, null, 10)).next;
        const people = await f.store.createMany(a, 'Participant', ['Ana', 'Ben', 'Cy'].map((n) => ({ first_name: n })), meta);
        const cohort = await f.store.create(a, 'Cohort', { cohort_code: 'C1' }, meta);
        await f.store.update(a, 'Participant', people[0].id, { first_name: 'Ana Maria' });
        const all = await readAll(f.store, a, start);
        // Ana moved to the end: her row holds its latest change, written last.
        // One transaction's rows come together (among themselves in id order), then the next's.
        expect(all.changes.slice(0, 2).map((c) => c.id).sort()).toEqual([people[1].id, people[2].id].sort());
        expect(all.changes.slice(2).map((c) => c.id)).toEqual([cohort.id, people[0].id]);
        expect(all.changes.at(-1)).toMatchObject({ entity: 'Participant', name: 'Ana Maria', deleted: false });
        expect(all.pages).toBe(1);

        const paged = await readAll(f.store, a, start, 1);
        expect(paged.changes.map((c) => c.id)).toEqual(all.changes.map((c) => c.id));
        expect(paged.pages).toBe(4); // four pages of one; the last says no more wait

        // Nothing new: the same position again (or a later one), no rows.
        const again = await f.store.readChanges(a, all.at, 10);
        expect(again.changes).toEqual([]);
        expect(again.more).toBe(false);
        expect(BigInt(again.next.txid)).toBeGreaterThanOrEqual(BigInt(all.at.txid));
        // Another app's changes are not this app's.
        await f.store.create(app(), 'Participant', { first_name: 'Elsewhere' }, meta);
        expect((await f.store.readChanges(a, all.at, 10)).changes).toEqual([]);
      } finally {
        await f.close();
      }
    });

    it('S17 a null cursor answers the current position and no rows', async () => {
      const f = await openShared();
      try {
        const a = app();
        await f.store.create(a, 'Participant', { first_name: 'Before' }, meta);
        const now = await f.store.readChanges(a, null, 10);
        expect(now.changes).toEqual([]);
        expect(now.more).toBe(false);
        const later = await f.store.create(a, 'Participant', { first_name: 'After' }, meta);
        expect((await readAll(f.store, a, now.next)).changes.map((c) => c.id)).toEqual([later.id]);
      } finally {
        await f.close();
      }
    });

    it('S17 sends a deletion as a tombstone, and pruning old tombstones raises the horizon', async () => {
      const f = await openShared();
      try {
        const a = app();
        const start = (await f.store.readChanges(a, null, 10)).next;
        const [keep, drop] = await f.store.createMany(a, 'Site', [{ site_name: 'Keep' }, { site_name: 'Drop' }], meta);
        await f.store.delete(a, 'Site', drop.id);
        const { changes, at } = await readAll(f.store, a, start);
        expect(changes).toEqual([
          { entity: 'Site', id: keep.id, deleted: false, name: undefined },
          { entity: 'Site', id: drop.id, deleted: true, name: undefined },
        ]);
        const before = await f.store.readChanges(a, at, 10);
        expect(before.horizon).toBe('0');
        // Tombstones older than a day: none yet.
        expect(await f.store.pruneChanges(a, 24 * 60 * 60 * 1000)).toBe(0);
        expect(await f.store.pruneChanges(a, 0)).toBe(1);
        const after = await f.store.readChanges(a, at, 10);
        // The position before the deletion is now at or below the horizon: the route refuses it (410).
        expect(BigInt(after.horizon)).toBeGreaterThanOrEqual(BigInt(start.txid));
        expect(BigInt(after.horizon)).toBeLessThan(BigInt(at.txid));
        // A live record's row is never pruned.
        expect((await readAll(f.store, a, START)).changes.map((c) => c.id)).toEqual([keep.id]);
      } finally {
        await f.close();
      }
    });

    it('S17 a database made before the feed gets a row for every record when it migrates', async () => {
      const f = await open(true);
      try {
        const a = app();
        const people = await f.store.createMany(a, 'Participant', [{ first_name: 'Old 1' }, { first_name: 'Old 2' }], meta);
        // As the schema stood before issue #24: no feed table, no triggers.
        await f.sql.transaction(async (tx) => {
          for (const event of ['insert', 'update', 'delete']) await tx.query(`DROP TRIGGER IF EXISTS records_feed_${event} ON records`);
          await tx.query('DROP TABLE IF EXISTS record_changes');
        });
        await f.store.migrate();
        await f.store.migrate(); // idempotent: the second start backfills nothing again
        const rows = await readAll(f.store, a, START);
        expect(rows.changes.map((c) => c.id).sort()).toEqual(people.map((p) => p.id).sort());
        const fresh = (await f.store.readChanges(a, null, 10)).next;
        await f.store.update(a, 'Participant', people[1].id, { first_name: 'Renamed' });
        expect((await readAll(f.store, a, fresh)).changes).toEqual([{ entity: 'Participant', id: people[1].id, deleted: false, name: 'Renamed' }]);
      } finally {
        await f.close();
      }
    });

    it('S17 a write that rolls back leaves no change', async () => {
      const f = await openShared();
      try {
        const a = app();
        const start = (await f.store.readChanges(a, null, 10)).next;
        const [p] = await f.store.createMany(a, 'Participant', [{ first_name: 'One' }], meta);
        // updateMany is all or nothing: the missing id rolls back the first patch and its change row.
        await expect(f.store.updateMany(a, 'Participant', [{ id: p.id, first_name: 'Two' }, { id: 'missing', first_name: 'x' }])).rejects.toThrow();
        const { changes } = await readAll(f.store, a, start);
        expect(changes).toEqual([{ entity: 'Participant', id: p.id, deleted: false, name: 'One' }]);
      } finally {
        await f.close();
      }
    });
  });
}
