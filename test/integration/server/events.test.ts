/**
 * Issue #24.2: `GET /api/apps/:app/events`, the change stream, on embedded PGlite (the PostgreSQL
 * side, with two instances, is events-postgres.test.ts). A write through the API is one
 * `changed` event on an open stream; a burst is coalesced; a silent stream gets keep-alive
 * comments; the stream is never compressed or buffered; callers are checked like any data route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../../support/sse-reader';
import { E, startTestServer, type TestServer } from './harness';

const EVENTS = '/api/apps/passage/events';
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ changeStreams: { keepAliveMs: 200, coalesceMs: 150 }, store: 'pglite' });
});
afterAll(() => s?.close());

const open = (token: string | undefined, headers: Record<string, string> = {}) => s.request('GET', EVENTS, { token, headers });

describe('the change stream (issue #24.2)', () => {
  it('refuses a caller without a token (401), one not approved (403) and another app (404)', async () => {
    const none = await open(undefined);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ code: 'AUTH_REQUIRED' });
    const pending = await open(s.tokens.pending);
    expect(pending.status).toBe(403);
    expect(await pending.json()).toMatchObject({ code: 'NOT_APPROVED' });
    expect((await s.request('GET', '/api/apps/another-app/events', { token: s.tokens.admin })).status).toBe(404);
    expect(s.changeStreams.size).toBe(0);
  });

  it('sends one changed event for a write through the API, naming its entity', async () => {
    const res = await open(s.tokens.coach, { 'accept-encoding': 'br, gzip' });
    const stream = readSse(res);
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('cache-control')).toMatch(/no-store/);
      expect(res.headers.get('x-accel-buffering')).toBe('no');
      await stream.until((t) => t.includes(': connected'));
      expect(stream.text()).toMatch(/^retry: \d+\n/);
      const made = await s.request('POST', E('Participant'), { token: s.tokens.admin, body: { first_name: 'Ana', last_name: 'Reyes' } });
      expect(made.status).toBe(200);
      await stream.until(() => stream.changed().length === 1);
      expect(stream.changed()).toEqual([{ entities: ['Participant'] }]);
      // Nothing more follows (a later keep-alive proves time passed beyond the coalescing window).
      const seen = stream.text().length;
      await stream.until((t) => t.slice(seen).includes(': keep-alive'));
      await stream.until((t) => t.slice(seen).split(': keep-alive').length > 2);
      expect(stream.changed()).toHaveLength(1);
    } finally {
      await stream.cancel();
    }
  });

  it('gathers a burst of writes into at most two events: the first at once, the rest together', async () => {
    const stream = readSse(await open(s.tokens.coach));
    try {
      await stream.until((t) => t.includes(': connected'));
      const made = await s.request('POST', E('Participant'), { token: s.tokens.admin, body: { first_name: 'Bo', last_name: 'Lind' } });
      const id = ((await made.json()) as { id: string }).id;
      for (let i = 0; i < 5; i++) await s.request('PUT', E('Participant', `/${id}`), { token: s.tokens.admin, body: { notes: `edit ${i}` } });
      await s.request('POST', E('Program'), { token: s.tokens.admin, body: { name: 'Welding' } });
      await stream.until(() => stream.changed().some((e) => e.entities.includes('Program')));
      const events = stream.changed();
      expect(events.length).toBeLessThanOrEqual(3);
      expect(events.at(-1)!.entities).toContain('Program');
      expect(new Set(events.flatMap((e) => e.entities))).toEqual(new Set(['Participant', 'Program']));
    } finally {
      await stream.cancel();
    }
  });

  it('keeps a quiet stream alive with comment lines', async () => {
    const stream = readSse(await open(s.tokens.admin));
    try {
      await stream.until((t) => t.split(': keep-alive\n\n').length > 2);
      expect(stream.changed()).toEqual([]);
    } finally {
      await stream.cancel();
    }
  });

  it('tells nothing of a write that was rolled back', async () => {
    const stream = readSse(await open(s.tokens.admin));
    try {
      await stream.until((t) => t.includes(': connected'));
      // A bulk update with one unknown id: all or nothing, so the first row's change is rolled back.
      const made = (await (await s.request('POST', E('Program'), { token: s.tokens.admin, body: { name: 'Carpentry' } })).json()) as { id: string };
      await stream.until(() => stream.changed().length === 1);
      const refused = await s.request('PUT', E('Program', '/bulk'), { token: s.tokens.admin, body: [{ id: made.id, name: 'Joinery' }, { id: 'no-such-id', name: 'X' }] });
      expect(refused.status).toBe(404);
      await s.request('POST', E('Site'), { token: s.tokens.admin, body: { name: 'North Yard' } });
      await stream.until(() => stream.changed().length === 2);
      expect(stream.changed()).toEqual([{ entities: ['Program'] }, { entities: ['Site'] }]);
    } finally {
      await stream.cancel();
    }
  });

  it('forgets a stream whose reader went away', async () => {
    const stream = readSse(await open(s.tokens.admin));
    await stream.until((t) => t.includes(': connected'));
    expect(s.changeStreams.size).toBe(1);
    await stream.cancel();
    await expect.poll(() => s.changeStreams.size).toBe(0);
  });
});
