/**
 * What happens when a new build is deployed while Passage is open (issue #5.3), without the browser:
 * the worker of the new build installs and waits ('prompt' mode); we tell the coach; when they say
 * Reload, the waiting worker is told to skip waiting, and once it controls the page we reload, so
 * the page and its worker are the same version. The outbox lives in IndexedDB, so it survives.
 */

/** The part of workbox-window's `Workbox` this flow uses (a fake stands in for it in tests). */
export interface UpdatableWorker {
  addEventListener(type: 'waiting' | 'controlling', listener: (event: { isExternal?: boolean; isUpdate?: boolean }) => void): void;
  messageSkipWaiting(): void;
  update(): Promise<unknown>;
}

export interface UpdateFlowDeps {
  /** Show the prompt; `apply` switches to the new version (it reloads the page). */
  onUpdateReady: (apply: () => void) => void;
  reload: () => void;
  /**
   * Calls `fn` once the page's controller changes (the browser's own `controllerchange`). A second
   * way to learn that the new worker took over, beside workbox-window's 'controlling': that event
   * depends on which worker the Workbox instance tracks, and a Reload that waits forever is a coach
   * staring at a frozen toast.
   */
  onControllerChange?: (fn: () => void) => void;
  /** Tells the registration's waiting worker itself to skip waiting (the same message workbox-window sends). */
  skipWaiting?: () => void;
  /** Repeats `fn` every `ms` milliseconds; returns a function that stops it. */
  every: (ms: number, fn: () => void) => () => void;
}

/**
 * Look for a new build once an hour: a tablet may stay open on one page for a whole day, and the
 * browser itself only checks on navigation. An hour is 24 small requests for sw.js a day.
 */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function wireUpdateFlow(worker: UpdatableWorker, deps: UpdateFlowDeps): () => void {
  let applying = false;
  let prompted = false;

  const apply = () => {
    if (applying) return;
    applying = true;
    // Reload only when the new worker took over: reloading earlier would load the old version again.
    let reloaded = false;
    const reload = () => {
      if (reloaded) return;
      reloaded = true;
      deps.reload();
    };
    worker.addEventListener('controlling', reload);
    deps.onControllerChange?.(reload);
    worker.messageSkipWaiting();
    // Also straight to the registration's waiting worker: workbox-window only messages the worker it
    // tracks, and a second SKIP_WAITING to the same worker does nothing.
    deps.skipWaiting?.();
  };

  // 'waiting' fires for this tab's registration and (isExternal) for one another tab installed;
  // both mean a new version is ready. One prompt per page life is enough.
  worker.addEventListener('waiting', () => {
    if (prompted) return;
    prompted = true;
    deps.onUpdateReady(apply);
  });

  return deps.every(UPDATE_CHECK_MS, () => {
    // A failed check (offline) is not an error worth showing: the next one will try again.
    worker.update().catch(() => undefined);
  });
}
