import { useSyncExternalStore } from 'react';

/**
 * Whether this device can work offline yet (issue #11.6). Two things make it so:
 * - the service worker is active, which means its install finished and the precache holds every
 *   built file: a reload or a new launch opens offline, and a page it controls gets every screen's
 *   chunk from that cache;
 * - or, until it controls this page (the first visit, seconds after sign-in), every screen's chunk
 *   is already in this page's memory (src/app/screens.ts preloads them right after the first render).
 * The header says "Getting ready to work offline…" until then, and "Ready to work offline" once.
 */
/** 'unknown' until registerPwa looked (it runs before the first render). */
export type WorkerState = 'unknown' | 'unsupported' | 'installing' | 'active';
export type ScreensState = 'loading' | 'loaded' | 'failed';
export interface ReadinessInputs {
  worker: WorkerState;
  /** navigator.serviceWorker.controller is set: chunks not in memory come from the precache. */
  controlled: boolean;
  screens: ScreensState;
}
export type OfflineReadiness = 'unavailable' | 'getting-ready' | 'ready';

export function offlineReadiness({ worker, controlled, screens }: ReadinessInputs): OfflineReadiness {
  // No service worker (old browser, private mode refusing it, dev server): Passage runs online only.
  if (worker === 'unsupported' || worker === 'unknown') return 'unavailable';
  if (worker === 'active' && (controlled || screens === 'loaded')) return 'ready';
  return 'getting-ready';
}

export interface ReadinessSnapshot {
  state: OfflineReadiness;
  /** performance.now() when it went from getting-ready to ready in this page, else null (it was ready from the start). */
  becameReadyAt: number | null;
}

let inputs: ReadinessInputs = { worker: 'unknown', controlled: false, screens: 'loading' };
let snapshot: ReadinessSnapshot = { state: offlineReadiness(inputs), becameReadyAt: null };
const listeners = new Set<() => void>();

export function updateReadiness(change: Partial<ReadinessInputs>, now: number = performance.now()): void {
  inputs = { ...inputs, ...change };
  const state = offlineReadiness(inputs);
  if (state === snapshot.state) return;
  snapshot = { state, becameReadyAt: state === 'ready' && snapshot.state === 'getting-ready' ? now : null };
  for (const l of listeners) l();
}

export function readinessSnapshot(): ReadinessSnapshot {
  return snapshot;
}

export function useOfflineReadiness(): ReadinessSnapshot {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    readinessSnapshot,
    readinessSnapshot,
  );
}

/** The part of navigator.serviceWorker this needs (a fake stands in for it in tests). */
export interface WorkerContainerLike {
  controller: unknown;
  ready: Promise<unknown>;
  addEventListener(type: 'controllerchange', listener: () => void): void;
}

/** Follows the service worker: active once `ready` resolves (install, hence precache, complete), controlling on controllerchange. */
export function watchServiceWorker(container: WorkerContainerLike | undefined, update: (change: Partial<ReadinessInputs>) => void = updateReadiness): void {
  if (!container) {
    update({ worker: 'unsupported' });
    return;
  }
  // A page opened under a worker is ready from its first frame: a controller is always an active
  // worker, so there is no 'getting ready' to show while `ready` resolves.
  update(container.controller != null ? { worker: 'active', controlled: true } : { worker: 'installing', controlled: false });
  container.addEventListener('controllerchange', () => update({ controlled: container.controller != null }));
  void container.ready.then(() => update({ worker: 'active', controlled: container.controller != null }));
}
