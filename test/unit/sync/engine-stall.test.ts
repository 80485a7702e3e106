import { describe, expect, it, vi } from 'vitest';
import { makeHarness, type Harness } from './harness';
import { createParticipant } from '../../../src/data/commands/participants';
import { createProgram } from '../../../src/data/commands/programs';

/**
 * Issue #9: a queue that never stalls (1), reconnects at once (3) and does not take one slow
 * request for "offline" (4). Scripted transport and fake clock (S14).
 */

const quota = () => Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });

/** Puts a failing engine into its offline backoff for `ms` (probes failing all along). */
async function offlineFor(h: Harness, ms: number): Promise<void> {
  h.transport.offline = true;
  await h.engine.start();
  await h.settle();
  await h.advance(ms);
  expect((await h.status()).online).toBe(false);
  h.transport.offline = false;
}

describe('issue #9.1: no op stays inflight after a thrown error', () => {
  it('a storage error while applying a push answer: the op is pending again and goes through once, later', async () => {
    const h = makeHarness();
    const local = await createParticipant(h.data, { first_name: 'Ada', last_name: 'Quota' });
    // The server applies the create; storing its answer (id swap: row, references, alias) fails.
    const put = vi.spyOn(h.db.aliases, 'bulkPut').mockImplementation(() => {
      throw quota();
    });
    await h.engine.start();
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect((await h.status()).lastError).toMatch(/out of storage space/);
    const [op] = await h.db.outbox.toArray();
    expect(op).toMatchObject({ state: 'pending', outcome_unknown: true });
    expect(await h.db.participants.get(local.id)).toMatchObject({ first_name: 'Ada' });

    // Space again: after the engine's backoff the create is looked up by client_ref and adopted,
    // not sent a second time.
    put.mockRestore();
    await h.advance(1_000);
    expect(await h.db.outbox.count()).toBe(0);
    const onServer = h.transport.server.rows('Participant');
    expect(onServer).toHaveLength(1);
    expect(await h.db.participants.get(onServer[0].id)).toMatchObject({ first_name: 'Ada', last_name: 'Quota' });
    expect((await h.status()).lastError).toBeNull();
  });

  it('a cycle whose step throws ends only when its other requests are answered', async () => {
    const h = makeHarness({ tuning: { concurrency: 2 } });
    await createParticipant(h.data, { first_name: 'Bea', last_name: 'Lane' });
    await createProgram(h.data, { program_name: 'Held program' });
    h.transport.failNext({ method: 'create', entity: 'Program' }, { kind: 'hold' });
    vi.spyOn(h.db.aliases, 'bulkPut').mockImplementationOnce(() => {
      throw quota();
    });
    await h.engine.start();
    await h.held(1);
    let ended = false;
    void h.engine.idle().then(() => (ended = true));
    await h.flush();
    // The participant's step threw; the program's request is still out: the cycle is not over.
    expect(ended).toBe(false);
    expect((await h.status()).syncing).toBe(true);

    h.transport.release(0);
    await h.settle();
    expect(ended).toBe(true);
    // The program's answer was stored; the participant's op waits, pending, for the next cycle.
    const left = await h.db.outbox.toArray();
    expect(left.map((o) => [o.entity, o.state])).toEqual([['Participant', 'pending']]);
    expect((await h.db.programs.toArray()).map((p) => [p.id, p.program_name])).toEqual([[h.transport.server.rows('Program')[0].id, 'Held program']]);

    await h.advance(1_000);
    expect(await h.db.outbox.count()).toBe(0);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });
});

describe('issue #9.4: one slow request is not "offline"', () => {
  it('a push timeout backs off that op only: the device stays online, the rest of the cycle runs', async () => {
    const h = makeHarness();
    h.transport.server.create('Cohort', { cohort_code: 'C-1', name: 'On the server' });
    await createParticipant(h.data, { first_name: 'Cy', last_name: 'Slow' });
    await createProgram(h.data, { program_name: 'Fast program' });
    h.transport.failNext({ method: 'create', entity: 'Participant' }, { kind: 'timeout' });
    await h.engine.start();
    await h.settle();

    expect((await h.status()).online).toBe(true);
    expect(h.transport.server.rows('Program')).toHaveLength(1);
    // The pull ran in the same cycle.
    expect(await h.db.cohorts.count()).toBe(1);
    const [op] = await h.db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Participant', state: 'pending', attempts: 1, outcome_unknown: true });
    expect(op.last_error?.message).toMatch(/timed out/);

    // Its own backoff (1 s × jitter): looked up by client_ref (not there), then sent.
    await h.advance(1_000);
    expect(h.transport.callsOf('filter', 'Participant').some((c) => JSON.stringify(c.args[0]).includes('client_ref'))).toBe(true);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect(await h.db.outbox.count()).toBe(0);
  });

  it('a timed-out create the server did apply is adopted, never sent twice (S3)', async () => {
    const h = makeHarness();
    await createParticipant(h.data, { first_name: 'Dee', last_name: 'Late' });
    h.transport.failNext({ method: 'create' }, { kind: 'drop-response' });
    await h.engine.start();
    await h.settle();
    expect((await h.status()).online).toBe(true);
    await h.advance(1_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect(h.transport.callsOf('create')).toHaveLength(1);
    expect(await h.db.outbox.count()).toBe(0);
  });

  it('a pull timeout skips that entity for this cycle; the others are pulled and the queue is not held', async () => {
    const h = makeHarness();
    h.transport.server.create('Cohort', { cohort_code: 'C-1', name: 'Cohort' });
    h.transport.server.create('Participant', { first_name: 'Pulled', last_name: 'Anyway' });
    h.transport.failNext({ method: 'filter', entity: 'Cohort' }, { kind: 'timeout' });
    await h.engine.start();
    await h.settle();
    expect((await h.status()).online).toBe(true);
    expect(await h.db.participants.count()).toBe(1);
    expect(await h.db.cohorts.count()).toBe(0);

    // A change 1 s later goes out at once, not after an offline backoff.
    await createParticipant(h.data, { first_name: 'Eve', last_name: 'Next' });
    await h.advance(1_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(2);
    expect(await h.db.cohorts.count()).toBe(1);
  });
});

describe('issue #9.3: reconnecting forgets the backoff', () => {
  it('a returning tab syncs at once, even deep in an offline backoff', async () => {
    const h = makeHarness();
    await offlineFor(h, 5 * 60_000);
    await createParticipant(h.data, { first_name: 'Fay', last_name: 'Tab' });
    h.engine.setVisible(false);
    h.engine.setVisible(true);
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect((await h.status()).online).toBe(true);
  });

  it('a successful request of any kind (serverReached) syncs at once', async () => {
    const h = makeHarness();
    await offlineFor(h, 5 * 60_000);
    await createParticipant(h.data, { first_name: 'Gus', last_name: 'Request' });
    await h.flush();
    h.engine.serverReached();
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });

  it('a successful request while all is well, or during a 429 hold, starts nothing', async () => {
    const h = makeHarness();
    await h.engine.start();
    await h.settle();
    const calls = h.transport.calls.length;
    h.engine.serverReached();
    await h.settle();
    expect(h.transport.calls.length).toBe(calls);

    h.transport.failNext({ method: 'create' }, { kind: 'status', status: 429, retryAfterSeconds: 120 });
    await createParticipant(h.data, { first_name: 'Kim', last_name: 'Throttled' });
    await h.advance(1_000);
    const held = h.transport.calls.length;
    h.engine.serverReached();
    await h.advance(60_000);
    expect(h.transport.calls.length).toBe(held);
    await h.advance(60_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });

  it('"online" syncs at once after an offline start, however long it lasted', async () => {
    const h = makeHarness();
    await offlineFor(h, 20 * 60_000);
    await createParticipant(h.data, { first_name: 'Hal', last_name: 'Online' });
    h.engine.connectionChanged(true);
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });

  it('a failed probe never pushes the next try past the periodic interval (60 s)', async () => {
    const h = makeHarness();
    await offlineFor(h, 20 * 60_000);
    // Every armed timer is at most the periodic interval away.
    expect(Math.max(...h.clock.pendingTimers())).toBeLessThanOrEqual(60_000);
    await createParticipant(h.data, { first_name: 'Ivy', last_name: 'Probe' });
    // No event at all: the next probe finds the server within a minute.
    await h.advance(60_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });

  it('no event at all after an offline start (the browser never said offline): the queued change is on the server within a second of its return', async () => {
    // The page was opened with no network (or behind a dead uplink): navigator.onLine stays true,
    // so no 'online' event will ever say the server is back. The bench's 1,000-op push and the
    // reconnect e2e tests waited out the offline hold (14 s, up to 60 s) here.
    const h = makeHarness();
    await createParticipant(h.data, { first_name: 'Lou', last_name: 'Quiet' });
    await offlineFor(h, 20 * 60_000);
    await h.advance(1_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
    expect(await h.db.outbox.count()).toBe(0);
    expect((await h.status()).online).toBe(true);
  });

  it('while out of reach, what asks the server each second is one small request, not the queue', async () => {
    const h = makeHarness();
    for (let i = 0; i < 3; i++) await createParticipant(h.data, { first_name: 'Mo', last_name: `Queued ${i}` });
    h.transport.offline = true;
    await h.engine.start();
    await h.settle();
    await h.advance(10 * 60_000);
    const before = h.transport.calls.length;
    await h.advance(60_000);
    const minute = h.transport.calls.slice(before);
    const probes = minute.filter((c) => c.method === 'filter' && c.entity === 'User' && c.args[2] === 1);
    // One probe a second; the queue itself is tried only when the offline hold runs out (≤ 60 s).
    expect(probes.length).toBeGreaterThanOrEqual(50);
    expect(minute.length - probes.length).toBeLessThanOrEqual(3);
  });

  it('the browser said it is offline: no probes, its "online" event brings the change', async () => {
    const h = makeHarness();
    await createParticipant(h.data, { first_name: 'Nell', last_name: 'Airplane' });
    h.transport.offline = true;
    await h.engine.start();
    h.engine.connectionChanged(false);
    await h.settle();
    await h.advance(10 * 60_000);
    expect(h.transport.callsOf('filter', 'User').filter((c) => c.args[2] === 1)).toHaveLength(0);
    expect(h.transport.calls.length).toBeLessThanOrEqual(20);
    h.transport.offline = false;
    h.engine.connectionChanged(true);
    await h.settle();
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });

  it('while hidden, an offline engine still probes no later than the periodic interval', async () => {
    const h = makeHarness();
    h.transport.offline = true;
    await createParticipant(h.data, { first_name: 'Jo', last_name: 'Hidden' });
    h.engine.setVisible(false);
    await h.engine.start();
    await h.settle();
    await h.advance(20 * 60_000);
    h.transport.offline = false;
    await h.advance(60_000);
    expect(h.transport.server.rows('Participant')).toHaveLength(1);
  });
});
