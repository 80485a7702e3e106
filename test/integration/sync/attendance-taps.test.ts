import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { markAttendance, markEveryonePresent } from '../../../src/data/commands/attendance';
import { resolveConflict } from '../../../src/data/commands/sync-ops';
import { makeDevice, withoutStream } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { startSyncServer, type FaultPlan, type SyncServer } from './sync-server';

/**
 * Issue #23.8 / docs/design.md S16: two tablets of a cohort's coaches mark the same participant at
 * the same session while both are offline. Each makes its own record; the server keeps one per
 * (session, participant) and answers the second create with the first. The later tap wins on the
 * server and on both tablets; the other tap is an open conflict on the tablet whose value lost or
 * was overwritten, and nothing is sent twice.
 */
let server: SyncServer;
let run = 0;

beforeAll(async () => {
  server = await startSyncServer();
});
afterAll(async () => {
  await server.close();
});

/** A cohort the coach leads, one session, and `n` participants enrolled. */
async function classroom(n: number) {
  const admin = server.client('admin');
  run++;
  const program = await admin.entities('Program').create({ program_name: `Money Basics ${run}`, active: true });
  const site = await admin.entities('Site').create({ site_name: `Camp ${run}`, site_type: 'fire_camp', active: true });
  const cohort = await admin.entities('Cohort').create({
    program_id: program.id,
    site_id: site.id,
    cohort_code: `MB-C-2026Q1-${run}`,
    start_date: '2026-01-05',
    status: 'active',
    lead_coach_email: server.coach.email,
  });
  const session = await admin.entities('Session').create({ cohort_id: cohort.id, session_number: 1, topic: 'Budgets', scheduled_at: '2026-01-15T17:00:00.000Z' });
  const people = [];
  for (let i = 0; i < n; i++) {
    const p = await admin.entities('Participant').create({ first_name: `P${i}`, last_name: `Room ${run}` });
    await admin.entities('Enrollment').create({ participant_id: p.id, cohort_id: cohort.id, intake_date: '2026-01-05', enrollment_status: 'active' });
    people.push(p);
  }
  return { cohort, session, people };
}

/** A coach's tablet whose network the test switches; its clock at `at` (the time of its taps). */
function tablet(at: number) {
  const net = { offline: false };
  const faults: FaultPlan = () => (net.offline ? 'offline' : 'none');
  // The test runs each cycle itself: no change stream to start one in real time (withoutStream).
  const transport = withoutStream(createPlatformTransport(server.client('coach', faults), server.coach.id));
  // The time of the taps, which the test may move without firing the engine's timers.
  const tapAt = { ms: at };
  const device = makeDevice({ name: 'taps', userId: server.coach.id, clock: new FakeClock(at), now: () => tapAt.ms, transport, nudges: false });
  return { ...device, net, tapAt };
}

const T0 = Date.UTC(2026, 0, 15, 17, 5);

describe('S16: one attendance record per session and participant, the later tap wins', () => {
  for (const order of ['earlier tap arrives first', 'later tap arrives first'] as const) {
    it(`two tablets mark one participant offline (${order}): one record on the server, the later tap everywhere, the other a conflict`, async () => {
      const { session, people } = await classroom(1);
      const p = people[0];
      const a = tablet(T0); // taps first: present
      const b = tablet(T0 + 60_000); // taps a minute later: absent
      for (const t of [a, b]) {
        await t.engine.start();
        await t.engine.runOnce();
        t.net.offline = true;
      }
      await markAttendance(a.data, { sessionId: session.id, participantId: p.id, status: 'present' });
      await markAttendance(b.data, { sessionId: session.id, participantId: p.id, status: 'absent' });

      const [first, second] = order === 'earlier tap arrives first' ? [a, b] : [b, a];
      for (const t of [first, second]) {
        t.net.offline = false;
        await t.engine.runOnce();
        await t.engine.runOnce();
      }
      await first.engine.runOnce(); // the first to arrive learns of the later tap, when it was the other's

      const stored = (await server.rows('Attendance')).filter((r) => r.session_id === session.id);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ participant_id: p.id, status: 'absent', recorded_at: new Date(T0 + 60_000).toISOString() });
      for (const t of [a, b]) {
        expect(await t.db.outbox.count()).toBe(0);
        const held = await t.db.attendance.where('session_id').equals(session.id).toArray();
        expect(held.map((r) => [r.id, r.status])).toEqual([[stored[0].id, 'absent']]);
      }
      // The losing tap is kept for review on the tablet that met the other record at its create.
      const loser = order === 'earlier tap arrives first' ? b : a;
      const conflicts = await loser.db.conflicts.toArray();
      expect(conflicts).toEqual([
        expect.objectContaining({ entity: 'Attendance', record_id: stored[0].id, field: 'status', status: 'open', local_value: loser === a ? 'present' : 'absent', server_value: loser === a ? 'absent' : 'present' }),
      ]);
      await a.engine.stop();
      await b.engine.stop();
    });
  }

  it('"Keep mine" on the losing tablet restores its tap as a new, later tap', async () => {
    const { session, people } = await classroom(1);
    const p = people[0];
    const a = tablet(T0);
    const b = tablet(T0 + 60_000);
    for (const t of [a, b]) {
      await t.engine.start();
      await t.engine.runOnce();
      t.net.offline = true;
    }
    await markAttendance(a.data, { sessionId: session.id, participantId: p.id, status: 'excused', note: 'Court date' });
    await markAttendance(b.data, { sessionId: session.id, participantId: p.id, status: 'absent' });
    b.net.offline = false;
    await b.engine.runOnce();
    a.net.offline = false;
    await a.engine.runOnce(); // a's create meets b's later record: a keeps it, its own tap a conflict
    const conflicts = await a.db.conflicts.toArray();
    expect(conflicts.map((c) => [c.field, c.local_value, c.server_value]).sort()).toEqual([
      ['note', 'Court date', null],
      ['status', 'excused', 'absent'],
    ]);
    expect(await a.db.attendance.where('session_id').equals(session.id).first()).toMatchObject({ status: 'absent', note: null });
    a.tapAt.ms = T0 + 120_000;
    for (const c of conflicts) await resolveConflict(a.data, c.id!, 'local');
    await a.engine.runOnce();
    const [stored] = (await server.rows('Attendance')).filter((r) => r.session_id === session.id);
    expect(stored).toMatchObject({ status: 'excused', note: 'Court date', recorded_at: new Date(T0 + 120_000).toISOString() });
    await a.engine.stop();
    await b.engine.stop();
  });

  it('a roster of 30 marked offline (everyone present, then exceptions) reaches the server exactly once, in bulk', async () => {
    const { session, people } = await classroom(30);
    const a = tablet(T0);
    await a.engine.start();
    await a.engine.runOnce();
    a.net.offline = true;
    expect(await markEveryonePresent(a.data, session.id, people.map((p) => p.id))).toBe(30);
    await markAttendance(a.data, { sessionId: session.id, participantId: people[3].id, status: 'late' });
    await markAttendance(a.data, { sessionId: session.id, participantId: people[7].id, status: 'absent' });
    // Offline, every tap is on the tablet: 30 records, 30 creates queued (the two exceptions merged into theirs, S1).
    expect(await a.db.attendance.where('session_id').equals(session.id).count()).toBe(30);
    expect(await a.db.outbox.count()).toBe(30);
    a.net.offline = false;
    await a.engine.runOnce();
    const stored = (await server.rows('Attendance')).filter((r) => r.session_id === session.id);
    expect(stored).toHaveLength(30);
    expect(new Set(stored.map((r) => r.participant_id)).size).toBe(30);
    expect(stored.filter((r) => r.status === 'present')).toHaveLength(28);
    expect(stored.find((r) => r.participant_id === people[3].id)?.status).toBe('late');
    expect(await a.db.outbox.count()).toBe(0);
    await a.engine.stop();
  });
});
