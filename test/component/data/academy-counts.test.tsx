import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { makeDevice } from '../../support/device';
import { withData } from '../../support/with-data';
import { ACADEMY_COUNTS_REFRESH_MS, forgetAcademyCounts, useAcademyCounts } from '../../../src/data/online/academy-counts';
import type { PlatformClientLike } from '../../../src/data/platform-like';

/** A platform client whose Participant count answers `answer()` (a number, or throws). */
function fakeClient(answer: () => number | Promise<number>, { withCount = true } = {}) {
  const calls: Array<{ entity: string; q: unknown }> = [];
  const client = {
    entities: (entity: string) => ({
      ...(withCount
        ? {
            count: async (q?: Record<string, unknown>) => {
              calls.push({ entity, q });
              return answer();
            },
          }
        : {}),
    }),
    auth: { me: async () => ({ id: 'u' }), updateMe: async () => ({ id: 'u' }) },
  } as unknown as PlatformClientLike;
  return { client, calls };
}

let now = 1_000_000;
beforeEach(() => {
  forgetAcademyCounts();
  now = 1_000_000;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useAcademyCounts (issue #22.4)', () => {
  it('asks the server for the whole academy\'s participants, unfiltered', async () => {
    const { client, calls } = fakeClient(() => 10_000);
    const { data } = makeDevice({ client, now: () => now });
    const { result } = renderHook(() => useAcademyCounts(true), withData(data));
    await waitFor(() => expect(result.current).toEqual({ participants: 10_000 }));
    expect(calls).toEqual([{ entity: 'Participant', q: undefined }]);
  });

  it('asks nothing and answers null while not enabled', async () => {
    const { client, calls } = fakeClient(() => 10_000);
    const { data } = makeDevice({ client, now: () => now });
    const { result, rerender } = renderHook(({ on }) => useAcademyCounts(on), { initialProps: { on: false }, ...withData(data) });
    await act(async () => undefined);
    expect(result.current).toBeNull();
    expect(calls).toHaveLength(0);
    rerender({ on: true });
    await waitFor(() => expect(result.current).toEqual({ participants: 10_000 }));
    rerender({ on: false });
    expect(result.current).toBeNull();
  });

  it('is null, never an error, when the server fails, the client cannot count, or there is no client', async () => {
    const failing = fakeClient(() => {
      throw Object.assign(new Error('Forbidden'), { status: 403 });
    });
    const { data } = makeDevice({ client: failing.client, now: () => now });
    const a = renderHook(() => useAcademyCounts(true), withData(data));
    await waitFor(() => expect(failing.calls).toHaveLength(1));
    await act(async () => undefined);
    expect(a.result.current).toBeNull();
    a.unmount();

    forgetAcademyCounts();
    data.client = fakeClient(() => 5, { withCount: false }).client;
    const b = renderHook(() => useAcademyCounts(true), withData(data));
    await act(async () => undefined);
    expect(b.result.current).toBeNull();
    b.unmount();

    forgetAcademyCounts();
    data.client = null;
    const c = renderHook(() => useAcademyCounts(true), withData(data));
    await act(async () => undefined);
    expect(c.result.current).toBeNull();
  });

  it('is null offline, without asking', async () => {
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    const { client, calls } = fakeClient(() => 10_000);
    const { data } = makeDevice({ client, now: () => now });
    const { result } = renderHook(() => useAcademyCounts(true), withData(data));
    await act(async () => undefined);
    expect(result.current).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('asks at most once a minute, however many screens ask, and refreshes each minute', async () => {
    // Only the refresh timer is faked (waitFor polls with setInterval too, so settle by hand).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const settle = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));
    let n = 10_000;
    const { client, calls } = fakeClient(() => n);
    const { data } = makeDevice({ client, now: () => now });
    const first = renderHook(() => useAcademyCounts(true), withData(data));
    const second = renderHook(() => useAcademyCounts(true), withData(data));
    await settle();
    expect(first.result.current).toEqual({ participants: 10_000 });
    expect(second.result.current).toEqual({ participants: 10_000 });
    expect(calls).toHaveLength(1);

    // A screen opened again within the minute shows the last answer at once, without asking.
    second.unmount();
    now += 30_000;
    const third = renderHook(() => useAcademyCounts(true), withData(data));
    expect(third.result.current).toEqual({ participants: 10_000 });
    await settle();
    expect(calls).toHaveLength(1);
    third.unmount();

    n = 10_050;
    now += ACADEMY_COUNTS_REFRESH_MS;
    await act(async () => {
      vi.advanceTimersByTime(ACADEMY_COUNTS_REFRESH_MS);
    });
    await settle();
    expect(first.result.current).toEqual({ participants: 10_050 });
    expect(calls).toHaveLength(2);
  });
});
