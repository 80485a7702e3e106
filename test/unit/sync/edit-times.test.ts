/**
 * Issue #26: every queued change tells the server's audit when the person made it on the tablet
 * (X-Passage-Edit-Times), and an answer to a conflict says so (X-Passage-Resolves-Conflict).
 */
import { describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness';
import { createParticipant, updateParticipant } from '../../../src/data/commands/participants';
import { createProgram, deleteProgram, updateProgram } from '../../../src/data/commands/programs';
import { resolveConflict } from '../../../src/data/commands/sync-ops';
import { editTimeOf, writeHeaders, writeMetaOf } from '../../../src/data/sync/edit-times';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { createPlatformClient } from '../../../src/platform';
import type { PlatformClientLike } from '../../../src/data/platform-like';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Offline for hours: probe the server every 10 minutes rather than every second (fewer timers to run). */
const QUIET = { probeMs: 10 * 60_000 };

async function synced(h: Harness, fields: Record<string, unknown> = {}) {
  const row = h.transport.server.create('Participant', { first_name: 'Ana', last_name: 'Ruiz', phone: '1', address: 'A', ...fields });
  await h.engine.start();
  await h.settle();
  return row;
}

/** Offline for `ms`, with the engine trying now and then as it does; then the connection is back. */
async function offlineFor(h: Harness, ms: number) {
  h.transport.offline = true;
  await h.advance(ms);
  h.transport.offline = false;
  h.engine.syncNow();
  await h.settle();
}

describe('issue #26: the edit time of a queued change', () => {
  it('S14: an edit made offline and sent three hours later carries the time it was made, not the time it was sent', async () => {
    const h = makeHarness({ tuning: QUIET });
    const row = await synced(h);
    h.transport.offline = true;
    await h.advance(HOUR);
    const editedAt = h.clock.now();
    await updateParticipant(h.data, row.id, { phone: '2' });
    await offlineFor(h, 3 * HOUR);
    expect(h.clock.now() - editedAt).toBeGreaterThanOrEqual(3 * HOUR);
    const updates = h.transport.callsOf('update', 'Participant');
    expect(updates).toHaveLength(1);
    expect(updates[0].meta).toEqual({ editTimes: [iso(editedAt)] });
    expect(h.transport.server.get('Participant', row.id)!.phone).toBe('2');
  });

  it('S1: two edits merged into one op carry the later edit’s time', async () => {
    const h = makeHarness({ tuning: QUIET });
    const row = await synced(h);
    h.transport.offline = true;
    await updateParticipant(h.data, row.id, { phone: '2' });
    await h.advance(20 * 60_000);
    const second = h.clock.now();
    await updateParticipant(h.data, row.id, { address: 'B' });
    expect(await h.db.outbox.count()).toBe(1);
    await offlineFor(h, HOUR);
    const [update] = h.transport.callsOf('update', 'Participant');
    expect(update.args[1]).toEqual({ phone: '2', address: 'B' });
    expect(update.meta).toEqual({ editTimes: [iso(second)] });
  });

  it('a bulk create sends one edit time per record, in the body’s order', async () => {
    const h = makeHarness({ tuning: QUIET });
    await h.engine.start();
    await h.settle();
    h.transport.offline = true;
    const times: number[] = [];
    for (const name of ['Ana', 'Ben', 'Cy']) {
      times.push(h.clock.now());
      await createParticipant(h.data, { first_name: name, last_name: 'X' });
      await h.advance(7 * 60_000);
    }
    await offlineFor(h, HOUR);
    const [bulk] = h.transport.callsOf('bulkCreate', 'Participant');
    const bodies = bulk.args[0] as Array<{ first_name: string }>;
    expect(bodies.map((b) => b.first_name)).toEqual(['Ana', 'Ben', 'Cy']);
    expect(bulk.meta).toEqual({ editTimes: times.map(iso) });
  });

  it('a bulk update sends one edit time per record, aligned with the rows it carries', async () => {
    const h = makeHarness({ tuning: QUIET });
    const a = h.transport.server.create('Participant', { first_name: 'Ana', last_name: 'X', phone: '1' });
    const b = h.transport.server.create('Participant', { first_name: 'Ben', last_name: 'X', phone: '1' });
    await h.engine.start();
    await h.settle();
    h.transport.offline = true;
    const tB = h.clock.now();
    await updateParticipant(h.data, b.id, { phone: 'b' });
    await h.advance(5 * 60_000);
    const tA = h.clock.now();
    await updateParticipant(h.data, a.id, { phone: 'a' });
    await offlineFor(h, HOUR);
    const [bulk] = h.transport.callsOf('bulkUpdate', 'Participant');
    const rows = bulk.args[0] as Array<{ id: string }>;
    const expected = rows.map((r) => iso(r.id === a.id ? tA : tB));
    expect(rows.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(bulk.meta).toEqual({ editTimes: expected });
  });

  it('a delete carries the time it was made', async () => {
    const h = makeHarness({ tuning: QUIET });
    const program = h.transport.server.create('Program', { program_name: 'Welding' });
    await h.engine.start();
    await h.settle();
    h.transport.offline = true;
    const deletedAt = h.clock.now();
    await deleteProgram(h.data, program.id);
    await offlineFor(h, 2 * HOUR);
    // Every attempt, the first offline one and the one that arrived two hours later, says when.
    const removes = h.transport.callsOf('remove', 'Program');
    expect(removes.length).toBeGreaterThan(1);
    for (const call of removes) expect(call).toMatchObject({ args: [program.id], meta: { editTimes: [iso(deletedAt)] } });
    expect(h.transport.server.get('Program', program.id)).toBeNull();
  });

  it('a create edited before it was sent carries the edit’s time (create + update merged)', async () => {
    // Never tried before the edit (a tried create may be on the server already: it is not merged into).
    const h = makeHarness({ tuning: QUIET });
    const program = await createProgram(h.data, { program_name: 'Weld' });
    await h.clock.advance(10 * 60_000);
    const editedAt = h.clock.now();
    await updateProgram(h.data, program.id, { program_name: 'Welding' });
    await h.clock.advance(HOUR);
    await h.engine.start();
    await h.settle();
    expect(h.transport.callsOf('create', 'Program')).toEqual([expect.objectContaining({ args: [expect.objectContaining({ program_name: 'Welding' })], meta: { editTimes: [iso(editedAt)] } })]);
  });

  it('a person’s answer to a conflict goes alone and says so; other updates go without the mark', async () => {
    const h = makeHarness({ tuning: QUIET });
    const row = await synced(h);
    const other = h.transport.server.create('Participant', { first_name: 'Ben', last_name: 'Y', phone: '1' });
    const third = h.transport.server.create('Participant', { first_name: 'Cy', last_name: 'Z', phone: '1' });
    await h.engine.runOnce();
    h.transport.server.update('Participant', row.id, { phone: 'server' });
    await updateParticipant(h.data, row.id, { phone: 'local' });
    await h.engine.runOnce();
    const [conflict] = await h.db.conflicts.toArray();
    expect(conflict).toMatchObject({ field: 'phone', status: 'open' });
    h.transport.calls.length = 0;
    const resolvedAt = h.clock.now();
    await resolveConflict(h.data, conflict.id!, 'server');
    await updateParticipant(h.data, other.id, { phone: '2' });
    await updateParticipant(h.data, third.id, { phone: '3' });
    await h.engine.runOnce();
    expect(h.transport.callsOf('bulkUpdate', 'Participant')).toEqual([
      expect.objectContaining({ meta: { editTimes: [expect.any(String), expect.any(String)] } }),
    ]);
    expect((h.transport.callsOf('bulkUpdate')[0].args[0] as Array<{ id: string }>).map((r) => r.id).sort()).toEqual([other.id, third.id].sort());
    expect(h.transport.callsOf('update', 'Participant')).toEqual([
      expect.objectContaining({ args: [row.id, { phone: 'server' }], meta: { editTimes: [iso(resolvedAt)], resolvesConflict: true } }),
    ]);
    expect(h.transport.server.get('Participant', row.id)!.phone).toBe('server');
  });
});

describe('issue #26: edit-time headers (pure)', () => {
  it('an op queued before issue #26 falls back to when it was queued', () => {
    expect(editTimeOf({ created_at: Date.UTC(2026, 0, 15, 9) })).toBe('2026-01-15T09:00:00.000Z');
    expect(editTimeOf({ created_at: Date.UTC(2026, 0, 15, 9), edited_at: Date.UTC(2026, 0, 15, 10) })).toBe('2026-01-15T10:00:00.000Z');
  });

  it('encodes the times as encodeURIComponent(JSON) and marks a resolved conflict with 1', () => {
    const meta = writeMetaOf([
      { created_at: Date.UTC(2026, 0, 15, 9) },
      { created_at: 0, edited_at: Date.UTC(2026, 0, 15, 9, 30), resolves_conflict: true },
    ]);
    const headers = writeHeaders(meta);
    expect(JSON.parse(decodeURIComponent(headers['X-Passage-Edit-Times']))).toEqual(['2026-01-15T09:00:00.000Z', '2026-01-15T09:30:00.000Z']);
    expect(headers['X-Passage-Edit-Times']).not.toMatch(/[",:[\]]/);
    expect(headers['X-Passage-Resolves-Conflict']).toBe('1');
    expect(writeHeaders(writeMetaOf([{ created_at: 1 }]))).not.toHaveProperty('X-Passage-Resolves-Conflict');
    expect(writeHeaders(undefined)).toEqual({});
  });
});

describe('issue #26: the platform transport sends the headers', () => {
  it('on a create, a bulk update and a delete; and none on a read', async () => {
    const seen: Array<{ method: string; url: string; headers: Headers }> = [];
    const client = createPlatformClient({
      serverUrl: 'http://passage.test',
      appId: 'app',
      getToken: () => 't',
      originUrl: 'http://passage.test/',
      fetch: async (input, init) => {
        seen.push({ method: String(init?.method), url: String(input), headers: new Headers(init?.headers) });
        const body = init?.method === 'DELETE' ? { success: true } : init?.method === 'GET' ? [] : String(input).endsWith('/bulk') ? [{ id: 'a' }] : { id: 'a' };
        return new Response(JSON.stringify(body), { status: 200 });
      },
    }) as unknown as PlatformClientLike;
    const transport = createPlatformTransport(client, 'me');
    const times = (...t: string[]) => ({ editTimes: t });
    await transport.create('Participant', { first_name: 'A' }, times('2026-01-15T09:00:00.000Z'));
    await transport.bulkUpdate('Participant', [{ id: 'a', phone: '1' }, { id: 'b', phone: '2' }], { ...times('2026-01-15T09:00:00.000Z', '2026-01-15T09:05:00.000Z') });
    await transport.update('Participant', 'a', { phone: '3' }, { editTimes: ['2026-01-15T10:00:00.000Z'], resolvesConflict: true });
    await transport.remove('Program', 'p', times('2026-01-15T11:00:00.000Z'));
    await transport.fetchMany('Participant', ['a']);
    const edit = (i: number) => JSON.parse(decodeURIComponent(seen[i].headers.get('X-Passage-Edit-Times') ?? 'null'));
    expect(seen.map((s) => s.method)).toEqual(['POST', 'PUT', 'PUT', 'DELETE', 'GET']);
    expect(edit(0)).toEqual(['2026-01-15T09:00:00.000Z']);
    expect(edit(1)).toEqual(['2026-01-15T09:00:00.000Z', '2026-01-15T09:05:00.000Z']);
    expect(edit(2)).toEqual(['2026-01-15T10:00:00.000Z']);
    expect(seen[2].headers.get('X-Passage-Resolves-Conflict')).toBe('1');
    expect(seen[1].headers.get('X-Passage-Resolves-Conflict')).toBeNull();
    expect(edit(3)).toEqual(['2026-01-15T11:00:00.000Z']);
    expect(seen[4].headers.get('X-Passage-Edit-Times')).toBeNull();
    // The platform's own headers stay.
    expect(seen[0].headers.get('Authorization')).toBe('Bearer t');
  });
});
