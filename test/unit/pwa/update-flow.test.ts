import { describe, expect, it, vi } from 'vitest';
import { UPDATE_CHECK_MS, wireUpdateFlow, type UpdatableWorker } from '../../../src/pwa/update-flow';

type Listener = (e: { isExternal?: boolean }) => void;

/** A scripted stand-in for workbox-window's Workbox: the test fires its events. */
function fakeWorker() {
  const listeners: Record<string, Listener[]> = {};
  const calls: string[] = [];
  const worker: UpdatableWorker = {
    addEventListener: (type, l) => void (listeners[type] ??= []).push(l),
    messageSkipWaiting: () => void calls.push('skipWaiting'),
    update: vi.fn(async () => void calls.push('update')),
  };
  const fire = (type: string, e = {}) => (listeners[type] ?? []).forEach((l) => l(e));
  return { worker, calls, fire };
}

function setup() {
  const w = fakeWorker();
  const prompts: Array<() => void> = [];
  const reload = vi.fn();
  let tick: (() => void) | null = null;
  let period = 0;
  const stop = vi.fn();
  const controllerChange: Array<() => void> = [];
  wireUpdateFlow(w.worker, {
    onUpdateReady: (apply) => prompts.push(apply),
    reload,
    onControllerChange: (fn) => controllerChange.push(fn),
    skipWaiting: () => void w.calls.push('skipWaiting (registration)'),
    every: (ms, fn) => {
      period = ms;
      tick = fn;
      return stop;
    },
  });
  const changeController = () => controllerChange.splice(0).forEach((fn) => fn());
  return { ...w, prompts, reload, changeController, tick: () => tick?.(), period: () => period };
}

describe('update flow (issue #5.3)', () => {
  it('prompts when a new worker is waiting, and does nothing before', () => {
    const s = setup();
    expect(s.prompts).toHaveLength(0);
    s.fire('waiting');
    expect(s.prompts).toHaveLength(1);
    expect(s.calls).not.toContain('skipWaiting');
    expect(s.reload).not.toHaveBeenCalled();
  });

  it('Reload tells the waiting worker to skip waiting and reloads only once it controls the page', () => {
    const s = setup();
    s.fire('waiting');
    s.prompts[0]();
    expect(s.calls).toEqual(['skipWaiting', 'skipWaiting (registration)']);
    expect(s.reload).not.toHaveBeenCalled();
    s.fire('controlling');
    expect(s.reload).toHaveBeenCalledTimes(1);
  });

  it("after Reload, the browser's controllerchange reloads too when workbox never says 'controlling', and only once", () => {
    const s = setup();
    s.fire('waiting');
    s.prompts[0]();
    expect(s.reload).not.toHaveBeenCalled();
    s.changeController();
    expect(s.reload).toHaveBeenCalledTimes(1);
    s.fire('controlling');
    expect(s.reload).toHaveBeenCalledTimes(1);
  });

  it('a worker taking control without the coach asking does not reload the page', () => {
    const s = setup();
    s.fire('controlling');
    expect(s.reload).not.toHaveBeenCalled();
  });

  it('a second waiting event (another tab installed it) does not prompt twice; applying twice skips once', () => {
    const s = setup();
    s.fire('waiting');
    s.fire('waiting', { isExternal: true });
    expect(s.prompts).toHaveLength(1);
    s.prompts[0]();
    s.prompts[0]();
    expect(s.calls.filter((c) => c === 'skipWaiting')).toHaveLength(1);
  });

  it('checks for a new build every hour, and a failed check (offline) is swallowed', async () => {
    const s = setup();
    expect(s.period()).toBe(UPDATE_CHECK_MS);
    expect(UPDATE_CHECK_MS).toBe(3_600_000);
    s.tick();
    expect(s.calls).toContain('update');
    (s.worker.update as ReturnType<typeof vi.fn>).mockRejectedValueOnce(new TypeError('Failed to fetch'));
    s.tick();
    await new Promise((r) => setTimeout(r, 0));
    expect(s.worker.update).toHaveBeenCalledTimes(2);
  });
});
