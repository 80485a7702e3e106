import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, backoffDelay, seededRandom } from '../../../src/data/sync/backoff';
import { classifyError } from '../../../src/data/sync/classify-error';
import { firstPage, nextPage } from '../../../src/data/sync/pull-pages';

describe('backoffDelay (S8)', () => {
  it('grows exponentially with jitter between half and the full step', () => {
    const low = () => 0;
    const high = () => 0.999999;
    expect(backoffDelay(1, low)).toBe(500);
    expect(backoffDelay(1, high)).toBe(1000);
    expect(backoffDelay(4, low)).toBe(4000);
    expect(backoffDelay(4, high)).toBe(8000);
  });

  it('caps at 15 minutes however many attempts', () => {
    expect(backoffDelay(60, () => 0.999999)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(60, () => 0)).toBe(BACKOFF_CAP_MS / 2);
  });

  it('never retries sooner than Retry-After', () => {
    expect(backoffDelay(1, () => 0, 120_000)).toBe(120_000);
  });

  it('the seeded generator is deterministic and in [0, 1)', () => {
    const a = seededRandom(7), b = seededRandom(7);
    const xs = Array.from({ length: 100 }, () => a());
    expect(xs).toEqual(Array.from({ length: 100 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('classifyError (S8)', () => {
  it('maps statuses to what the queue does', () => {
    expect(classifyError({ message: 'x', code: 'NETWORK_ERROR' }).kind).toBe('offline');
    // Issue #9.4: one request's timeout is that op's unknown outcome, not the device going offline.
    expect(classifyError({ message: 'x', code: 'TIMEOUT' }).kind).toBe('timeout');
    for (const s of [500, 502, 503, 408]) expect(classifyError({ message: 'x', status: s }).kind).toBe('retry');
    expect(classifyError({ message: 'x', status: 429, retryAfterSeconds: 30 })).toEqual({ kind: 'throttle', message: 'x', retryAfterMs: 30_000 });
    expect(classifyError({ message: 'x', status: 401 }).kind).toBe('auth');
    for (const s of [400, 403, 404, 409, 422]) {
      expect(classifyError({ message: 'Nope', status: s, code: 'C' })).toEqual({ kind: 'reject', message: 'Nope', status: s, code: 'C' });
    }
  });

  it('S8: a 409 POSSIBLE_DUPLICATE keeps the ids it names (issue #23.7), so the Sync page can offer them', () => {
    const data = { message: 'm', code: 'POSSIBLE_DUPLICATE', extra_data: { field: 'cdcr_number', duplicate_ids: ['p1', 7, 'p2'] } };
    expect(classifyError({ message: 'm', status: 409, code: 'POSSIBLE_DUPLICATE', data })).toEqual({
      kind: 'reject',
      message: 'm',
      status: 409,
      code: 'POSSIBLE_DUPLICATE',
      duplicateIds: ['p1', 'p2'],
    });
  });

  it('a bug (no status, no transport code) is retried later, not treated as offline or dropped', () => {
    expect(classifyError(new TypeError('x is undefined')).kind).toBe('retry');
    expect(classifyError(new TypeError('fetch failed')).kind).toBe('offline');
  });
});

describe('pull paging (S5)', () => {
  it('starts the overlap window before the cursor', () => {
    expect(firstPage('2026-01-01T00:00:10.000Z', 2000)).toEqual({ from: '2026-01-01T00:00:08.000Z', skip: 0 });
    expect(firstPage(null, 2000)).toEqual({ from: null, skip: 0 });
  });

  it('keys the next page on the last timestamp and skips rows taken at exactly it', () => {
    const page = [{ updated_date: 'a' }, { updated_date: 'b' }, { updated_date: 'c' }, { updated_date: 'c' }];
    expect(nextPage({ from: null, skip: 0 }, page, 4)).toEqual({ from: 'c', skip: 2 });
    expect(nextPage({ from: null, skip: 0 }, page, 5)).toBeNull();
  });

  it('a full page all at one timestamp moves on by skipping, so it never loops', () => {
    const page = [{ updated_date: 'c' }, { updated_date: 'c' }];
    expect(nextPage({ from: 'c', skip: 2 }, page, 2)).toEqual({ from: 'c', skip: 4 });
  });
});
