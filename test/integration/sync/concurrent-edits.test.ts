import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { updateParticipant } from '../../../src/data/commands/participants';
import { makeDevice } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { startSyncServer, type FaultPlan, type SyncServer } from './sync-server';

/**
 * Issue #9.10: two devices PUT the same field within one round trip. Each fetched the record first
 * (the S4 merge) and saw the old value, so without help the later PUT silently replaces the
 * earlier edit. Passage's server answers an update with what it overwrote (X-Passage-Previous);
 * the later device must then record a conflict. Against a server without the header the engine
 * still works (the platform's behaviour: last write wins).
 */
let server: SyncServer;
let n = 0;

beforeAll(async () => {
  server = await startSyncServer();
});
afterAll(async () => {
  await server.close();
});

/** A request held until the test lets it go, and a promise that says it arrived. */
class Gate {
  arrived!: Promise<void>;
  private arrive!: () => void;
  private open!: () => void;
  private opened: Promise<void>;
  constructor() {
    this.arrived = new Promise((r) => (this.arrive = r));
    this.opened = new Promise((r) => (this.open = r));
  }
  hold(): Promise<void> {
    this.arrive();
    return this.opened;
  }
  release(): void {
    this.open();
  }
}

/** One tablet of the coach; the test runs each of its cycles itself (commands do not nudge it). */
function device(gate: Gate | null, stripPrevious = false) {
  const faults: FaultPlan = async (req) => {
    if (req.method === 'PUT' && gate) await gate.hold();
    return 'none' as const;
  };
  const client = server.client('coach', faults);
  // A platform without the extension: the same answers, minus the header.
  const plain = stripPrevious ? withoutPreviousHeader(client) : client;
  const transport = createPlatformTransport(plain, server.coach.id);
  return makeDevice({ name: 'concurrent', userId: server.coach.id, clock: new FakeClock(Date.now()), transport, nudges: false });
}

/** Strips the previous values the client attached, as if the server had not sent the header. */
function withoutPreviousHeader(client: ReturnType<SyncServer['client']>): ReturnType<SyncServer['client']> {
  const copy = (row: unknown) => (Array.isArray(row) ? row.map((r) => ({ ...r })) : { ...(row as object) });
  return {
    ...client,
    entities: (name) => {
      const api = client.entities(name);
      return {
        ...api,
        update: async (id, data) => copy(await api.update(id, data)) as never,
        bulkUpdate: async (rows) => copy(await api.bulkUpdate(rows)) as never,
      };
    },
  };
}

async function twoDevicesEditingPhone(strip: boolean) {
  const p = await server.client('coach').entities('Participant').create({ first_name: 'Two', last_name: `Devices ${n++}`, phone: '111' });
  const gateA = new Gate();
  const gateB = new Gate();
  const a = device(gateA, strip);
  const b = device(gateB, strip);
  await a.engine.start();
  await b.engine.start();
  await a.settle();
  await b.settle();

  await updateParticipant(a.data, p.id, { phone: '222' });
  await updateParticipant(b.data, p.id, { phone: '333' });

  // A fetches and sends; B fetches (still sees 111) and sends; A's PUT lands first, then B's.
  const runA = a.engine.runOnce();
  await gateA.arrived;
  const runB = b.engine.runOnce();
  await gateB.arrived;
  gateA.release();
  await runA;
  gateB.release();
  await runB;
  return { p, a, b };
}

describe('issue #9.10: concurrent online edits are never silent', () => {
  it('the later PUT, told what it overwrote, records a conflict with the other device\'s value', async () => {
    const { p, a, b } = await twoDevicesEditingPhone(false);
    expect((await server.rows('Participant')).find((r) => r.id === p.id)).toMatchObject({ phone: '333' });
    const conflicts = await b.db.conflicts.toArray();
    expect(conflicts).toEqual([
      expect.objectContaining({ kind: 'field', status: 'open', record_id: p.id, field: 'phone', local_value: '333', server_value: '222' }),
    ]);
    expect(conflicts[0].server_updated_date).toEqual(expect.any(String));
    // The first writer overwrote the value it had based its edit on: nothing to review there.
    expect(await a.db.conflicts.count()).toBe(0);
    expect(await a.db.outbox.count()).toBe(0);
    expect(await b.db.outbox.count()).toBe(0);
    // The previous values never reach the mirror.
    expect(Object.getOwnPropertySymbols(await b.db.participants.get(p.id))).toEqual([]);
    await a.engine.stop();
    await b.engine.stop();
  });

  it('against a server without the extension the edits still go through (last write wins, as on the platform)', async () => {
    const { p, a, b } = await twoDevicesEditingPhone(true);
    expect((await server.rows('Participant')).find((r) => r.id === p.id)).toMatchObject({ phone: '333' });
    expect(await b.db.outbox.count()).toBe(0);
    expect(await b.db.participants.get(p.id)).toMatchObject({ phone: '333' });
    await a.engine.stop();
    await b.engine.stop();
  });

  it('the server\'s update answer carries the previous updated_date and values of the changed fields, the body unchanged', async () => {
    const p = await server.client('coach').entities('Participant').create({ first_name: 'Head', last_name: 'Er', phone: '1', notes: 'x' });
    const res = await server.app.request(`/api/apps/passage/entities/Participant/${p.id}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${server.tokens.coach}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone: '2', email: 'é@example.org' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id: p.id, phone: '2' });
    expect(body).not.toHaveProperty('previous');
    const header = JSON.parse(decodeURIComponent(res.headers.get('X-Passage-Previous')!));
    expect(header).toEqual([{ id: p.id, updated_date: p.updated_date, values: { phone: '1', email: null } }]);
  });
});
