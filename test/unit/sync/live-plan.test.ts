/**
 * S18's decision when the change stream ends (src/data/sync/live-plan.ts), and S9's periodic pull
 * with a healthy stream (wake-plan.ts): pure rules over plain data.
 */
import { describe, expect, it } from 'vitest';
import { afterStreamEnd } from '../../../src/data/sync/live-plan';
import { wakeTimes } from '../../../src/data/sync/wake-plan';
import { BACKOFF_CAP_MS } from '../../../src/data/sync/backoff';

const half = () => 0.5;

describe('S18 Push: when the stream ends', () => {
  it('S18: a server without the stream (404, 405, 501) is left to polling', () => {
    for (const status of [404, 405, 501]) expect(afterStreamEnd({ kind: 'refused', status }, 1, half)).toEqual({ action: 'give-up', checkConnection: false });
  });

  it('S18: 401/403 stop the stream and let a sync cycle find out (S8 pauses on 401)', () => {
    for (const status of [401, 403]) expect(afterStreamEnd({ kind: 'refused', status }, 1, half)).toEqual({ action: 'give-up', checkConnection: true });
  });

  it('S18: 5xx, 408 and 429 reopen with S8 backoff, honouring Retry-After', () => {
    expect(afterStreamEnd({ kind: 'refused', status: 503 }, 1, half)).toEqual({ action: 'reopen', inMs: 750, checkConnection: false });
    expect(afterStreamEnd({ kind: 'refused', status: 502 }, 4, half)).toEqual({ action: 'reopen', inMs: 6_000, checkConnection: false });
    expect(afterStreamEnd({ kind: 'refused', status: 429, retryAfterMs: 30_000 }, 1, half)).toMatchObject({ action: 'reopen', inMs: 30_000 });
  });

  it('S18: a dropped, unreachable or silent stream reopens with backoff and asks for a check of the connection', () => {
    for (const kind of ['unreachable', 'stale'] as const) {
      expect(afterStreamEnd({ kind }, 1, half)).toEqual({ action: 'reopen', inMs: 750, checkConnection: true });
      expect(afterStreamEnd({ kind }, 30, half)).toEqual({ action: 'reopen', inMs: 0.75 * BACKOFF_CAP_MS, checkConnection: true });
    }
  });

  it('S18: a stream the server ended reopens soon, without a check', () => {
    expect(afterStreamEnd({ kind: 'ended' }, 1, () => 0)).toEqual({ action: 'reopen', inMs: 500, checkConnection: false });
  });

  it('S18: other refusals (400, 410) are not retried', () => {
    expect(afterStreamEnd({ kind: 'refused', status: 400 }, 1, half).action).toBe('give-up');
  });
});

describe('S9 periodic pull with the change stream (S18)', () => {
  const tuning = { periodicMs: 60_000, probeMs: 1_000, safetyNetMs: 600_000 };
  const base = { now: 0, holdUntil: 0, nextOpAt: null, visible: true, reachable: true, browserOffline: false };

  it('S18: every 60 s without a healthy stream, every 10 minutes with one, never while hidden', () => {
    expect(wakeTimes(base, tuning).at).toBe(60_000);
    expect(wakeTimes({ ...base, streamHealthy: true }, tuning).at).toBe(600_000);
    expect(wakeTimes({ ...base, streamHealthy: true, visible: false }, tuning).at).toBeNull();
  });

  it('S18: a backed-off op still wakes the engine on time with a healthy stream', () => {
    expect(wakeTimes({ ...base, streamHealthy: true, nextOpAt: 5_000 }, tuning).at).toBe(5_000);
  });
});
