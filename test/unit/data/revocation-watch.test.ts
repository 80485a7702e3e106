import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createDataContext, type DataContext } from '../../../src/data/context';
import { PassageDB } from '../../../src/data/db';
import type { PlatformClientLike } from '../../../src/data/platform-like';
import { CHECK_EVERY_MS, watchRevocation, type RevocationSignals, type RevocationWatch } from '../../../src/data/revocation';
import { VAULT_KEY } from '../../../src/data/vault/device-vault';
import { KeyRing } from '../../../src/data/vault/key-ring';
import { FakeClock } from '../../support/fake-clock';

/**
 * S18 (issue #24.4): how often the revocation watch asks deviceStatus. An idle online tablet whose
 * change stream is healthy asks nothing (the stream says `revoked`); without a healthy stream it
 * asks every minute as before; a tab that follows a leader never asks on its own.
 */
let n = 0;
let watch: RevocationWatch | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

/** A device with a vault, a server answering deviceStatus as scripted, and a fake engine. */
async function setUp(opts: { leader?: boolean; healthy?: boolean } = {}) {
  const db = new PassageDB(`revocation-${process.pid}-${n++}`, new KeyRing());
  await db.meta.put({ key: VAULT_KEY, value: { user_id: 'coach-1', device_id: 'tablet-1' } });
  const server = { status: { status: 'active' } as Record<string, unknown>, calls: 0 };
  const client = {
    functions: {
      invoke: async (fn: string) => {
        if (fn !== 'deviceStatus') throw new Error(`unexpected ${fn}`);
        server.calls++;
        return { data: server.status };
      },
    },
  } as unknown as PlatformClientLike;
  const ctx: DataContext = createDataContext({ db, client });
  const listeners = new Set<() => void>();
  const engine = {
    isLeader: opts.leader ?? true,
    streamHealthy: opts.healthy ?? true,
    onRevokedNotice(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    say: () => listeners.forEach((l) => l()),
  } satisfies RevocationSignals & { say(): void };
  const clock = new FakeClock();
  const revoked: string[] = [];
  const start = () => {
    watch = watchRevocation(ctx, { syncNow: () => {}, onRevoked: (r) => revoked.push(r), signals: engine, clock });
  };
  return { server, engine, clock, revoked, start };
}

describe('the revocation watch (S18, issue #24.4)', () => {
  it('asks once at start, then nothing over 10 minutes while the leader’s change stream is healthy', async () => {
    const t = await setUp({ leader: true, healthy: true });
    t.start();
    await t.clock.advance(0);
    expect(t.server.calls).toBe(1);
    await t.clock.advance(10 * 60_000);
    expect(t.server.calls).toBe(1);
  });

  it('asks at once when the stream says revoked, and erases with the reason deviceStatus gives', async () => {
    const t = await setUp({ leader: true, healthy: true });
    t.start();
    await t.clock.advance(3 * 60_000);
    expect(t.server.calls).toBe(1);
    t.server.status = { status: 'revoked', mode: 'erase', reason: 'Left on the bus' };
    t.engine.say();
    await t.clock.advance(0);
    expect(t.server.calls).toBe(2);
    expect(t.revoked).toEqual(['Left on the bus']);
    // Once told, it asks no more.
    await t.clock.advance(5 * 60_000);
    expect(t.server.calls).toBe(2);
  });

  it('asks every minute while the stream is not healthy, and stops asking once it is', async () => {
    const t = await setUp({ leader: true, healthy: false });
    t.start();
    await t.clock.advance(0);
    expect(t.server.calls).toBe(1);
    await t.clock.advance(CHECK_EVERY_MS - 1);
    expect(t.server.calls).toBe(1);
    await t.clock.advance(1);
    expect(t.server.calls).toBe(2);
    await t.clock.advance(4 * CHECK_EVERY_MS);
    expect(t.server.calls).toBe(6);
    t.engine.streamHealthy = true;
    await t.clock.advance(10 * CHECK_EVERY_MS);
    expect(t.server.calls).toBe(6);
    // The stream is lost (a proxy that buffers, the server restarted): the minute's check returns.
    t.engine.streamHealthy = false;
    await t.clock.advance(CHECK_EVERY_MS);
    expect(t.server.calls).toBe(7);
  });

  it('in a tab that follows a leader, asks only at start', async () => {
    const t = await setUp({ leader: false, healthy: false });
    t.start();
    await t.clock.advance(10 * 60_000);
    expect(t.server.calls).toBe(1);
  });

  it('erases at once a tablet revoked in mode flush with nothing waiting to be sent', async () => {
    const t = await setUp({ leader: true, healthy: true });
    t.server.status = { status: 'revoked', mode: 'flush', reason: 'Returned' };
    t.start();
    await t.clock.advance(0);
    expect(t.revoked).toEqual(['Returned']);
  });
});
