/**
 * The Store contract (server/store/types.ts), run against every implementation: embedded PGlite and a
 * real PostgreSQL. Each test works in its own fresh app id, so tests never see each other's rows.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityRecord, Store } from '../../../server/store/types';
import { registerFilterContractTests } from './filter-contract';
import { registerQueryContractTests } from './query-contract';

export interface StoreFactoryOptions {
  now?: () => number;
}
export type MakeStore = (options?: StoreFactoryOptions) => Promise<Store>;

export interface ContractContext {
  store: () => Store;
  makeStore: MakeStore;
  /** Several stores (think: server processes) can share one database. */
  sharedDatabase: boolean;
}

export const meta = { by: 'coach@example.org', byId: 'user-1' };
export const freshApp = () => `app-${randomUUID()}`;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export async function expect400(work: Promise<unknown>, message?: RegExp) {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected an HttpError 400').toMatchObject({ status: 400 });
  if (message) expect((err as Error).message).toMatch(message);
}

export function registerStoreContractTests(name: string, makeStore: MakeStore, opts: { sharedDatabase: boolean }) {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });
    const ctx: ContractContext = { store: () => store, makeStore, sharedDatabase: opts.sharedDatabase };

    describe('records', () => registerRecordTests(ctx));
    describe('filters', () => registerFilterContractTests(ctx));
    describe('sort, limit, skip, fields', () => registerQueryContractTests(ctx));
    describe('updated_date order', () => registerClockTests(ctx));
    describe('auth and logs', () => registerAuthAndLogTests(ctx));
  });
}

function registerRecordTests({ store }: ContractContext) {
  it('create assigns id, dates and creator, ignoring client-set platform fields', async () => {
    const app = freshApp();
    const created = await store().create(app, 'Participant', {
      full_name: 'Ana Diaz', id: 'mine', created_date: '2000-01-01T00:00:00.000Z', updated_date: 'x',
      created_by: 'evil@example.org', created_by_id: 'evil',
    }, meta);
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    expect(created.created_date).toMatch(ISO_MS);
    expect(created.updated_date).toBe(created.created_date);
    expect(created).toMatchObject({ full_name: 'Ana Diaz', created_by: 'coach@example.org', created_by_id: 'user-1' });
    expect(await store().get(app, 'Participant', created.id)).toEqual(created);
    expect(await store().get(app, 'Participant', 'mine')).toBeNull();
  });

  it('ids are distinct and keep apps and entities apart', async () => {
    const app = freshApp();
    const a = await store().create(app, 'Site', { name: 'North' }, { by: null, byId: null });
    const b = await store().create(app, 'Site', { name: 'South' }, { by: null, byId: null });
    expect(a.id).not.toBe(b.id);
    expect(a).toMatchObject({ created_by: null, created_by_id: null });
    expect(await store().get(app, 'Program', a.id)).toBeNull();
    expect(await store().get(freshApp(), 'Site', a.id)).toBeNull();
    expect(await store().count(app, 'Site')).toBe(2);
    expect(await store().list(freshApp(), 'Site', {})).toEqual([]);
  });

  it('rejects a record that is not an object', async () => {
    const app = freshApp();
    await expect400(store().create(app, 'Site', [] as unknown as Record<string, unknown>, meta));
    await expect400(store().create(app, 'Site', null as unknown as Record<string, unknown>, meta));
    expect(await store().count(app, 'Site')).toBe(0);
  });

  it('update merges shallowly, bumps updated_date and keeps the platform fields', async () => {
    const app = freshApp();
    const before = await store().create(app, 'Participant', { full_name: 'Ana', phone: '555', address: { city: 'A', zip: '1' } }, meta);
    const after = await store().update(app, 'Participant', before.id, {
      phone: null, address: { city: 'B' }, notes: 'new', id: 'other', created_by: 'evil', created_date: '1999-01-01T00:00:00.000Z',
    });
    expect(after).toEqual({
      ...before, phone: null, address: { city: 'B' }, notes: 'new', updated_date: after!.updated_date,
    });
    expect(after!.updated_date > before.updated_date).toBe(true);
    expect(await store().get(app, 'Participant', before.id)).toEqual(after);
    expect(await store().update(app, 'Participant', 'no-such-id', { a: 1 })).toBeNull();
  });

  it('createMany writes all records in one transaction, or none', async () => {
    const app = freshApp();
    const made = await store().createMany(app, 'Enrollment', [{ n: 1 }, { n: 2 }, { n: 3 }], meta);
    expect(made.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(new Set(made.map((r) => r.id)).size).toBe(3);
    // The third record holds a NUL character, which PostgreSQL's jsonb refuses: the database fails
    // mid-transaction and the first two must not stay behind.
    await expect400(store().createMany(app, 'Enrollment', [{ n: 4 }, { n: 5 }, { n: 'bad\u0000' }], meta));
    await expect400(store().createMany(app, 'Enrollment', [{ n: 6 }, 7 as unknown as Record<string, unknown>], meta));
    expect((await store().list(app, 'Enrollment', { sort: 'n' })).map((r) => r.n)).toEqual([1, 2, 3]);
    expect(await store().createMany(app, 'Enrollment', [], meta)).toEqual([]);
  });

  it('updateMany changes all records or, when an id is missing, nothing (404)', async () => {
    const app = freshApp();
    const [a, b] = await store().createMany(app, 'Enrollment', [{ status: 'active' }, { status: 'active' }], meta);
    const updated = await store().updateMany(app, 'Enrollment', [{ id: a.id, status: 'completed' }, { id: b.id, status: 'withdrawn' }]);
    expect(updated.map((r) => [r.id, r.status])).toEqual([[a.id, 'completed'], [b.id, 'withdrawn']]);
    expect(updated[1].updated_date > updated[0].updated_date).toBe(true);

    const err = await store().updateMany(app, 'Enrollment', [{ id: a.id, status: 'x' }, { id: 'missing', status: 'x' }]).catch((e) => e);
    expect(err).toMatchObject({ status: 404 });
    expect((await store().get(app, 'Enrollment', a.id))!.status).toBe('completed');
    await expect400(store().updateMany(app, 'Enrollment', [{ status: 'x' } as unknown as { id: string }]));
  });

  it('delete removes the record once', async () => {
    const app = freshApp();
    const r = await store().create(app, 'Cohort', { name: 'Spring' }, meta);
    expect(await store().delete(app, 'Cohort', r.id)).toBe(true);
    expect(await store().delete(app, 'Cohort', r.id)).toBe(false);
    expect(await store().get(app, 'Cohort', r.id)).toBeNull();
  });

  it('migrate can run again on a live database', async () => {
    const app = freshApp();
    await store().create(app, 'Site', { name: 'Kept' }, meta);
    await store().migrate();
    expect((await store().list(app, 'Site', {})).map((r) => r.name)).toEqual(['Kept']);
  });
}

function registerClockTests({ store, makeStore, sharedDatabase }: ContractContext) {
  it('updated_date strictly increases even when the clock stands still or goes back', async () => {
    let t = Date.parse('2030-01-01T00:00:00.000Z');
    const frozen = await makeStore({ now: () => t });
    try {
      const app = freshApp();
      const a = await frozen.create(app, 'P', { n: 1 }, meta);
      const b = await frozen.create(app, 'P', { n: 2 }, meta);
      t -= 60_000; // the clock jumps back a minute (NTP correction, another server's skew)
      const a2 = await frozen.update(app, 'P', a.id, { n: 3 });
      const many = await frozen.createMany(app, 'P', [{ n: 4 }, { n: 5 }], meta);
      const stamps = [a.updated_date, b.updated_date, a2!.updated_date, ...many.map((r) => r.updated_date)];
      expect(stamps).toEqual([
        '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.001Z', '2030-01-01T00:00:00.002Z',
        '2030-01-01T00:00:00.003Z', '2030-01-01T00:00:00.004Z',
      ]);
      expect(a2!.created_date).toBe(a.created_date);
      // Another entity has its own clock and follows real (injected) time.
      t += 120_000;
      expect((await frozen.create(app, 'Q', {}, meta)).updated_date).toBe('2030-01-01T00:01:00.000Z');
    } finally {
      await frozen.close();
    }
  });

  it.runIf(sharedDatabase)('servers with skewed clocks on one database still stamp in write order', async () => {
    const t = Date.parse('2031-05-01T12:00:00.000Z');
    const ahead = await makeStore({ now: () => t + 10_000 }); // this server's clock runs 10 s fast
    const behind = await makeStore({ now: () => t });
    try {
      const app = freshApp();
      const stamps: string[] = [];
      for (let i = 0; i < 6; i++) {
        const server = i % 2 ? behind : ahead;
        stamps.push((await server.create(app, 'P', { i }, meta)).updated_date);
      }
      expect(stamps).toEqual([0, 1, 2, 3, 4, 5].map((ms) => new Date(t + 10_000 + ms).toISOString()));
    } finally {
      await Promise.all([ahead.close(), behind.close()]);
    }
  });

  it('a pull by updated_date >= cursor misses no write under 200 concurrent creates and updates', async () => {
    const app = freshApp();
    const seeded = await store().createMany(app, 'P', Array.from({ length: 20 }, (_, i) => ({ n: i })), meta);
    const writers = sharedDatabase ? [store(), await makeStore(), await makeStore()] : [store()];
    const seen = new Map<string, string>(); // id → newest updated_date seen by the puller
    let cursor = '';
    const pull = async () => {
      const page = await store().list(app, 'P', { q: { updated_date: { $gte: cursor } }, sort: 'updated_date' });
      for (const r of page) if ((seen.get(r.id) ?? '') < r.updated_date) seen.set(r.id, r.updated_date);
      // The newest stamp seen becomes the cursor (>=, so the boundary row is read again, harmlessly).
      if (page.length) cursor = page[page.length - 1].updated_date;
    };
    let done = false;
    const puller = (async () => {
      while (!done) await pull();
    })();
    try {
      const writes = await Promise.all(
        Array.from({ length: 200 }, (_, i) => {
          const w = writers[i % writers.length];
          return i % 2 ? w.create(app, 'P', { n: 100 + i }, meta) : w.update(app, 'P', seeded[i % 20].id, { n: 200 + i });
        }),
      );
      const stamps = writes.map((r) => r!.updated_date);
      expect(new Set(stamps).size).toBe(200);
    } finally {
      done = true;
      await puller;
      if (sharedDatabase) await Promise.all(writers.slice(1).map((w) => w.close()));
    }
    await pull();
    const final = await store().list(app, 'P', { sort: 'updated_date' });
    expect(final).toHaveLength(120);
    const dates = final.map((r) => r.updated_date);
    expect(new Set(dates).size).toBe(final.length);
    for (const r of final) expect(seen.get(r.id), `pull saw the last write of ${r.id}`).toBe(r.updated_date);
  });
}

function registerAuthAndLogTests({ store }: ContractContext) {
  it('keeps one auth record per email, case-insensitively, apart per app', async () => {
    const app = freshApp();
    expect(await store().getAuth(app, 'ana@example.org')).toBeNull();
    await store().putAuth(app, 'Ana@Example.org', { user_id: 'u1', email: 'ana@example.org', password_hash: 'h1', failed: 0 });
    await store().putAuth(app, 'ana@example.org', { user_id: 'u1', email: 'ana@example.org', password_hash: 'h2', failed: 2 });
    expect(await store().getAuth(app, 'ANA@example.org')).toEqual({ user_id: 'u1', email: 'ana@example.org', password_hash: 'h2', failed: 2 });
    expect(await store().getAuth(freshApp(), 'ana@example.org')).toBeNull();
  });

  it('lists app logs newest first with limit and skip', async () => {
    const app = freshApp();
    for (const page of ['Home', 'Participants', 'Cohorts']) {
      await store().appendLog(app, { page, user_id: 'u1', user_email: 'a@example.org' });
    }
    const logs = await store().listLogs(app, {});
    expect(logs.map((l) => l.page)).toEqual(['Cohorts', 'Participants', 'Home']);
    expect(logs[0]).toMatchObject({ user_id: 'u1', user_email: 'a@example.org' });
    expect(logs[0].id).toMatch(/^[0-9a-f]{24}$/);
    expect(logs[0].created_date).toMatch(ISO_MS);
    expect((await store().listLogs(app, { limit: 1, skip: 1 })).map((l) => l.page)).toEqual(['Participants']);
    expect(await store().listLogs(freshApp(), {})).toEqual([]);
  });
}
