import { describe, expect, it } from 'vitest';
import { offlineReadiness, watchServiceWorker, type ReadinessInputs } from '../../../src/pwa/offline-readiness';

describe('offline readiness (issue #11.6)', () => {
  const at = (change: Partial<ReadinessInputs>) => offlineReadiness({ worker: 'installing', controlled: false, screens: 'loading', ...change });

  it('is not ready while the service worker installs, even with every screen in memory', () => {
    expect(at({})).toBe('getting-ready');
    expect(at({ screens: 'loaded' })).toBe('getting-ready');
  });

  it('an active worker that does not control the page yet needs every screen in memory', () => {
    expect(at({ worker: 'active' })).toBe('getting-ready');
    expect(at({ worker: 'active', screens: 'failed' })).toBe('getting-ready');
    expect(at({ worker: 'active', screens: 'loaded' })).toBe('ready');
  });

  it('a controlling active worker serves any chunk from its precache', () => {
    expect(at({ worker: 'active', controlled: true })).toBe('ready');
    expect(at({ worker: 'active', controlled: true, screens: 'failed' })).toBe('ready');
  });

  it('without service workers (or before anyone looked) the line says nothing', () => {
    expect(at({ worker: 'unsupported', screens: 'loaded' })).toBe('unavailable');
    expect(at({ worker: 'unknown', controlled: true })).toBe('unavailable');
  });

  it('follows the worker: controller now, active when ready resolves, controlling on controllerchange', async () => {
    const changes: Partial<ReadinessInputs>[] = [];
    let resolveReady!: () => void;
    let onControllerChange!: () => void;
    const container = {
      controller: null as unknown,
      ready: new Promise<void>((r) => (resolveReady = r)),
      addEventListener: (_: 'controllerchange', l: () => void) => (onControllerChange = l),
    };
    watchServiceWorker(container, (c) => changes.push(c));
    expect(changes).toEqual([{ worker: 'installing', controlled: false }]);
    resolveReady();
    await container.ready;
    await Promise.resolve();
    expect(changes.at(-1)).toEqual({ worker: 'active', controlled: false });
    container.controller = {};
    onControllerChange();
    expect(changes.at(-1)).toEqual({ controlled: true });
  });

  it('a page opened under its worker is ready from the first frame', () => {
    const changes: Partial<ReadinessInputs>[] = [];
    watchServiceWorker({ controller: {}, ready: new Promise(() => undefined), addEventListener: () => undefined }, (c) => changes.push(c));
    expect(changes).toEqual([{ worker: 'active', controlled: true }]);
    expect(offlineReadiness({ worker: 'installing', controlled: false, screens: 'loading', ...changes[0] })).toBe('ready');
  });

  it('no service worker container: unsupported', () => {
    const changes: Partial<ReadinessInputs>[] = [];
    watchServiceWorker(undefined, (c) => changes.push(c));
    expect(changes).toEqual([{ worker: 'unsupported' }]);
  });
});
