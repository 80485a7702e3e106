import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHarness } from './harness';
import { createParticipant } from '../../../src/data/commands/participants';
import { SyncEngine } from '../../../src/data/sync/engine';
import type { LockManagerLike } from '../../../src/data/sync/types';
import { syncNow } from '../../../src/data/commands/sync-now';

const pullsOf = (h: ReturnType<typeof makeHarness>) => h.transport.callsOf('filter', 'Program').filter((c) => c.args[1] === 'updated_date').length;

describe('S9 triggers', () => {
  it('syncs once about 1 s after the last of a burst of local writes', async () => {
    const h = makeHarness();
    await h.engine.start();
    await h.settle();
    await createParticipant(h.data, { first_name: 'A', last_name: '1' });
    await h.advance(900);
    await createParticipant(h.data, { first_name: 'B', last_name: '2' });
    await h.advance(900);
    expect(h.transport.server.rows('Participant')).toHaveLength(0);
    await h.advance(100);
    expect(h.transport.callsOf('bulkCreate')).toHaveLength(1);
    expect(h.transport.server.rows('Participant')).toHaveLength(2);
  });

  it('syncs every 60 s while visible, not while hidden, and at once on becoming visible', async () => {
    const h = makeHarness();
    await h.engine.start();
    await h.settle();
    expect(pullsOf(h)).toBe(1);
    await h.advance(60_000);
    expect(pullsOf(h)).toBe(2);
    h.engine.setVisible(false);
    await h.advance(10 * 60_000);
    expect(pullsOf(h)).toBe(2);
    h.engine.setVisible(true);
    await h.settle();
    expect(pullsOf(h)).toBe(3);
  });

  it('"Sync now" runs at once, even for ops waiting out a backoff', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 500 }, 3);
    await createParticipant(h.data, { first_name: 'A', last_name: '1' });
    await h.engine.start();
    await h.settle();
    await h.advance(800);
    await h.advance(1600);
    const [op] = await h.db.outbox.toArray();
    expect(op.next_attempt_at).toBeGreaterThan(h.clock.now() + 1000);
    syncNow(h.data);
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });
});

/** One lock per "browser": the second requester waits until the first callback settles. */
class FakeLocks implements LockManagerLike {
  private tail: Promise<unknown> = Promise.resolve();
  request(_name: string, callback: () => Promise<void>): Promise<unknown> {
    const run = this.tail.then(callback);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

describe('S10 one leader', () => {
  it('only the tab holding the lock syncs; the other takes over when it goes', async () => {
    const locks = new FakeLocks();
    const h = makeHarness({ lock: locks });
    const second = new SyncEngine({ db: h.db, transport: h.transport, clock: h.clock, userId: 'user-1', lock: locks, random: () => 0.5 });
    await h.engine.start();
    await second.start();
    await h.settle();
    expect(h.engine.isLeader).toBe(true);
    expect(second.isLeader).toBe(false);
    const callsBefore = h.transport.calls.length;
    second.syncNow();
    second.localWrite();
    await h.advance(1_500);
    await second.idle();
    expect(h.transport.calls.length).toBe(callsBefore);
    expect((await h.status()).syncing).toBe(false);

    await h.engine.stop();
    await h.settle();
    await second.idle();
    expect(second.isLeader).toBe(true);
    await createParticipant(h.data, { first_name: 'A', last_name: '1' });
    second.syncNow();
    await h.settle();
    await second.idle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    await second.stop();
  });
});

describe('S14 time', () => {
  it('the engine reads time only from its clock', async () => {
    const h = makeHarness();
    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 500 });
    await createParticipant(h.data, { first_name: 'A', last_name: '1' });
    await h.engine.start();
    await h.settle();
    const [op] = await h.db.outbox.toArray();
    // The fake clock is in 2026-01-15; a Date.now() slip would show up as a different epoch.
    expect(op.next_attempt_at).toBe(h.clock.now() + 750);
    expect((await h.status()).lastSyncedAt).toBe(h.clock.now());
    expect(h.clock.pendingTimers()[0]).toBe(750);
  });

  it('no engine module touches Date.now, setTimeout, Math.random or the argument-less Date', () => {
    const dir = join(__dirname, '../../../src/data/sync');
    // Only the platform transport meets the world here (the status hook and the Sync page's
    // actions now live in data/queries and data/commands); types.ts only declares the Clock.
    const shell = new Set(['platform-transport.ts', 'types.ts']);
    const offenders = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !shell.has(f))
      .filter((f) => /Date\.now\(|(^|[^.\w]|window\.|globalThis\.)set(Timeout|Interval)\(|Math\.random\(|new Date\(\)/m.test(readFileSync(join(dir, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
