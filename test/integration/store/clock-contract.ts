/** updated_date: strictly increasing per (app, entity), in commit order, across processes. */
import { expect, it } from 'vitest';
import { type ContractContext, freshApp, meta } from './contract-helpers';

export function registerClockTests({ store, makeStore, sharedDatabase }: ContractContext) {
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
