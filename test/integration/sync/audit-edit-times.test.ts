/**
 * Issue #26 end to end: the engine against the real server (in-process, PGlite). The audit event
 * of an edit made offline and sent hours later carries the tablet's edit time as client_time; a
 * bulk push's events each carry their own record's time; an answer to a conflict is recorded as
 * resolve_conflict; a CSV export made offline is recorded once it reaches the server.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { updateParticipant } from '../../../src/data/commands/participants';
import { resolveConflict } from '../../../src/data/commands/sync-ops';
import { reportExport } from '../../../src/data/commands/export-notice';
import { readExportNotices } from '../../../src/data/sync/export-notices';
import { makeDevice } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { startSyncServer, type SyncServer } from './sync-server';

let server: SyncServer;
let offline = false;
let n = 0;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  server = await startSyncServer();
});
afterAll(async () => {
  await server.close();
});

/** The coach's tablet: its clock starts at the real now (the server's clock stays real). */
function tablet() {
  const transport = createPlatformTransport(
    server.client('coach', () => (offline ? 'offline' : 'none')),
    server.coach.id,
  );
  return makeDevice({ name: `audit-${n++}`, userId: server.coach.id, clock: new FakeClock(Date.now()), transport, engine: { tuning: { probeMs: 10 * 60_000 } } });
}

type Event = { action: string; record_id: string | null; client_time: string | null; created_date: string; changes: Record<string, unknown> | null; actor_email: string | null; device_id: string | null };

async function eventsOf(q: Record<string, unknown>): Promise<Event[]> {
  return (await server.client('admin').entities('AuditEvent').filter(q, '-created_date', 100)) as unknown as Event[];
}

describe('issue #26: the tablet’s edit time in the audit (real server)', () => {
  it('S14: an edit made offline and sent three hours later is recorded with the time it was made', async () => {
    const d = tablet();
    const p = await server.client('coach').entities('Participant').create({ first_name: 'Off', last_name: 'Line', phone: '1' });
    await d.engine.start();
    await d.settle();
    offline = true;
    // The tablet's clock runs ahead of the server's: the server cannot have made this time up.
    await d.advance(HOUR);
    const editedAt = d.clock.now();
    await updateParticipant(d.data, p.id, { phone: '2' });
    await d.advance(3 * HOUR);
    offline = false;
    d.engine.syncNow();
    await d.settle();
    const [event] = await eventsOf({ entity: 'Participant', record_id: p.id, action: 'update' });
    expect(event).toMatchObject({ client_time: iso(editedAt), actor_email: 'coach@example.org', changes: { phone: { old: '1', new: '2' } } });
    // It arrived now (server time), long before the tablet's clock says the edit was made.
    expect(Date.parse(event.created_date)).toBeLessThan(editedAt);
    await d.engine.stop();
  });

  it('a bulk push records each record with its own edit time', async () => {
    const d = tablet();
    const coach = server.client('coach').entities('Participant');
    const a = await coach.create({ first_name: 'Bulk', last_name: 'A', phone: '1' });
    const b = await coach.create({ first_name: 'Bulk', last_name: 'B', phone: '1' });
    await d.engine.start();
    await d.settle();
    offline = true;
    const tB = d.clock.now();
    await updateParticipant(d.data, b.id, { phone: 'b' });
    await d.advance(10 * 60_000);
    const tA = d.clock.now();
    await updateParticipant(d.data, a.id, { phone: 'a' });
    await d.advance(HOUR);
    offline = false;
    d.engine.syncNow();
    await d.settle();
    const events = await eventsOf({ entity: 'Participant', record_id: { $in: [a.id, b.id] }, action: 'update' });
    expect(Object.fromEntries(events.map((e) => [e.record_id, e.client_time]))).toEqual({ [a.id]: iso(tA), [b.id]: iso(tB) });
    await d.engine.stop();
  });

  it('an answer to a conflict is recorded as resolve_conflict', async () => {
    const d = tablet();
    const p = await server.client('coach').entities('Participant').create({ first_name: 'Two', last_name: 'Sides', phone: '1' });
    await d.engine.start();
    await d.settle();
    await server.client('admin').entities('Participant').update(p.id, { phone: 'office' });
    await updateParticipant(d.data, p.id, { phone: 'tablet' });
    await d.engine.runOnce();
    const [conflict] = await d.db.conflicts.toArray();
    await resolveConflict(d.data, conflict.id!, 'server');
    await d.engine.runOnce();
    const [event] = await eventsOf({ entity: 'Participant', record_id: p.id, action: 'resolve_conflict' });
    expect(event).toMatchObject({ changes: { phone: { old: 'tablet', new: 'office' } }, actor_email: 'coach@example.org' });
    await d.engine.stop();
  });

  it('a CSV export made offline is recorded once the tablet is back', async () => {
    const d = tablet();
    await d.engine.start();
    await d.settle();
    offline = true;
    await reportExport(d.data, { kind: 'attendance', rowCount: 31, filters: { cohort_id: 'c-77' } });
    await d.advance(HOUR);
    expect(await eventsOf({ action: 'export', actor_email: 'coach@example.org' })).toEqual([]);
    offline = false;
    d.engine.syncNow();
    await d.settle();
    const events = await eventsOf({ action: 'export', actor_email: 'coach@example.org' });
    expect(events).toHaveLength(1);
    expect(events[0].changes).toMatchObject({ kind: 'attendance', row_count: 31, filters: { cohort_id: 'c-77' } });
    expect(await readExportNotices(d.db)).toEqual([]);
    await d.engine.stop();
  });
});
