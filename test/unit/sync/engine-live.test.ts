/**
 * S18 Push: the sync leader's change stream says when to pull. Engine against a scripted stream
 * (test/support/scripted-events.ts) and a fake clock: notices pull (a burst once), a healthy
 * stream turns the 60 s poll into a 10-minute safety net (S9), a hidden tab lets it go, and a
 * server or network that cannot hold a stream leaves the tablet polling as before.
 */
import { describe, expect, it } from 'vitest';
import { makeHarness } from './harness';
import { ScriptedTransport } from '../../support/scripted-transport';
import { withEvents } from '../../support/scripted-events';
import { SyncEngine } from '../../../src/data/sync/engine';
import type { LockManagerLike } from '../../../src/data/sync/types';

/** One pull of every entity asks for Program's changes once. */
const pullsOf = (h: ReturnType<typeof makeHarness>) => h.transport.callsOf('filter', 'Program').filter((c) => c.args[1] === 'updated_date').length;

/** Let the stream's message reach the engine (the scripted stream delivers on later microtasks). */
async function heard(h: ReturnType<typeof makeHarness>, say: () => void) {
  say();
  await h.flush();
}

/** Time passes with the server's keep-alive every 25 s, as from a healthy stream. */
async function keptAlive(h: ReturnType<typeof makeHarness>, events: ReturnType<typeof withEvents>, ms: number) {
  for (let t = 0; t < ms; t += 25_000) {
    await h.advance(Math.min(25_000, ms - t));
    await heard(h, () => events.alive());
  }
}

async function live() {
  const transport = new ScriptedTransport();
  const events = withEvents(transport);
  const h = makeHarness({ transport });
  await h.engine.start();
  await h.settle();
  return { h, events };
}

describe('S18 Push', () => {
  it('S18: a changed notice pulls; several close together are one pull', async () => {
    const { h, events } = await live();
    expect(events.open).toBe(1);
    const before = pullsOf(h);
    await heard(h, () => events.changed(['Participant']));
    await heard(h, () => events.changed(['Enrollment']));
    await h.advance(100);
    await heard(h, () => events.changed(['Participant']));
    await h.advance(400);
    expect(pullsOf(h)).toBe(before + 1);
    await heard(h, () => events.changed());
    await h.advance(400);
    expect(pullsOf(h)).toBe(before + 2);
  });

  it('S18: a pull brings the change the notice was about', async () => {
    const { h, events } = await live();
    h.transport.server.create('Participant', { first_name: 'Ana', last_name: 'Reyes' });
    await heard(h, () => events.changed(['Participant']));
    await h.advance(500);
    expect((await h.db.participants.toArray()).map((p) => p.first_name)).toEqual(['Ana']);
  });

  it('S18: while the stream is healthy the periodic pull is a 10-minute safety net (S9)', async () => {
    const { h, events } = await live();
    const before = pullsOf(h);
    await keptAlive(h, events, 9 * 60_000 + 50_000);
    expect(pullsOf(h)).toBe(before);
    await keptAlive(h, events, 25_000);
    expect(pullsOf(h)).toBe(before + 1);
  });

  it('S18: the stream says revoked: the engine tells its listeners at once, and reports the stream healthy until then', async () => {
    const { h, events } = await live();
    const told: number[] = [];
    const unsubscribe = h.engine.onRevokedNotice(() => told.push(h.clock.now()));
    expect(h.engine.streamHealthy).toBe(true);
    await heard(h, () => events.revoked());
    expect(told).toEqual([h.clock.now()]);
    await heard(h, () => events.end());
    expect(h.engine.streamHealthy).toBe(false);
    unsubscribe();
    await h.advance(10_000);
    await heard(h, () => events.revoked());
    expect(told).toHaveLength(1);
  });

  it('S18: an idle, visible tablet with a healthy stream makes no request for 9 minutes', async () => {
    const { h, events } = await live();
    const calls = h.transport.calls.length;
    await keptAlive(h, events, 9 * 60_000);
    expect(h.transport.calls.slice(calls)).toEqual([]);
    expect(events.opens).toBe(1);
  });

  it('S18: a hidden tab lets its stream go; shown again it reopens the stream and pulls once', async () => {
    const { h, events } = await live();
    h.engine.setVisible(false);
    await h.settle();
    expect(events.open).toBe(0);
    const before = pullsOf(h);
    await h.advance(30 * 60_000);
    expect(pullsOf(h)).toBe(before);
    h.engine.setVisible(true);
    await h.settle();
    expect(events.open).toBe(1);
    expect(pullsOf(h)).toBe(before + 1);
    await keptAlive(h, events, 5 * 60_000);
    expect(pullsOf(h)).toBe(before + 1);
  });

  it('S18: a returning tab whose stream does not speak pulls anyway after 3 s, and polls every 60 s', async () => {
    const { h, events } = await live();
    h.engine.setVisible(false);
    await h.settle();
    events.holdBackFirstBytes();
    const before = pullsOf(h);
    h.engine.setVisible(true);
    await h.advance(2_900);
    expect(pullsOf(h)).toBe(before);
    await h.advance(200);
    expect(pullsOf(h)).toBe(before + 1);
    await h.advance(60_000);
    expect(pullsOf(h)).toBe(before + 2);
  });

  it('S18: a server without the stream (404) is polled every 60 s and asked again only when wanted anew', async () => {
    const transport = new ScriptedTransport();
    const events = withEvents(transport);
    events.refuseNext(404);
    const h = makeHarness({ transport });
    await h.engine.start();
    await h.settle();
    const before = pullsOf(h);
    await h.advance(60_000);
    expect(pullsOf(h)).toBe(before + 1);
    await h.advance(30 * 60_000);
    expect(events.opens).toBe(1);
    h.engine.setVisible(false);
    h.engine.setVisible(true);
    await h.settle();
    expect(events.opens).toBe(2);
    expect(events.open).toBe(1);
  });

  it('S18: a stream that says nothing for 60 s (a proxy that buffers) is dropped and retried with backoff; polling goes on', async () => {
    const transport = new ScriptedTransport();
    const events = withEvents(transport);
    events.holdBackFirstBytes();
    const h = makeHarness({ transport });
    await h.engine.start();
    await h.settle();
    const before = pullsOf(h);
    await h.advance(60_000);
    expect(events.open).toBe(0); // taken for buffered
    expect(pullsOf(h)).toBeGreaterThanOrEqual(before + 1); // the 60 s poll (and a check of the connection)
    await h.advance(10 * 60_000);
    // Retries back off (1 s, 2 s, 4 s, … each waiting its 60 s): a handful in 10 minutes, not dozens.
    expect(events.opens).toBeGreaterThan(2);
    expect(events.opens).toBeLessThan(12);
    expect(pullsOf(h)).toBeGreaterThanOrEqual(before + 10);
  });

  it('S18: a dropped stream runs a cycle to check the connection, reopens with backoff and pulls when it opens', async () => {
    const { h, events } = await live();
    const before = pullsOf(h);
    events.drop();
    await h.settle();
    expect(pullsOf(h)).toBe(before + 1); // the check: the server still answers
    await h.advance(1_500);
    expect(events.opens).toBe(2);
    expect(events.open).toBe(1);
    expect(pullsOf(h)).toBe(before + 2); // what changed while no stream was open
  });

  it('S18: offline there is no stream; when the server answers again it reopens', async () => {
    const { h, events } = await live();
    h.transport.offline = true;
    h.engine.connectionChanged(false);
    await h.settle();
    expect(events.open).toBe(0);
    await h.advance(5 * 60_000);
    expect(events.open).toBe(0);
    h.transport.offline = false;
    h.engine.connectionChanged(true);
    await h.settle();
    expect(events.open).toBe(1);
  });

  it('S18: only the leader holds a stream (S10)', async () => {
    let release: (() => void) | null = null;
    const held: LockManagerLike = {
      request: (_name, callback) => (release ? new Promise(() => {}) : ((release = () => {}), callback())),
    };
    const transport = new ScriptedTransport();
    const events = withEvents(transport);
    const h = makeHarness({ transport, lock: held });
    const follower = new SyncEngine({ db: h.db, transport, clock: h.clock, userId: 'user-1', lock: held, random: () => 0.5 });
    await h.engine.start();
    await follower.start();
    await h.settle();
    expect(h.engine.isLeader).toBe(true);
    expect(follower.isLeader).toBe(false);
    follower.setVisible(true);
    await h.settle();
    expect(events.opens).toBe(1);
    await follower.stop();
  });
});
