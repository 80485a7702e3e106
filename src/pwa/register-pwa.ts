import { updateReadiness, watchServiceWorker } from './offline-readiness';
import { afterFirstPage } from '../shell-api/first-page';

/**
 * Registers the service worker the build writes (dist/sw.js, see pwa-options.ts) and wires the
 * update prompt. Called once at boot by src/main.tsx. Not in dev (`vite` serves no sw.js) and not
 * where service workers do not exist (jsdom, old browsers): the app then simply runs online.
 * It also feeds the header's "ready to work offline" line (offline-readiness.ts).
 * The registration itself (workbox-window and the update prompt, register-worker.ts) is its own
 * small chunk, fetched once the first page is on screen (src/app/first-page.ts), so on a slow link
 * it does not compete with the first page's own JavaScript.
 */
export function registerPwa(): void {
  if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) {
    updateReadiness({ worker: 'unsupported' });
    return;
  }
  watchServiceWorker(navigator.serviceWorker);
  afterFirstPage(() => void register());
}

function register(): Promise<unknown> {
  return import('./register-worker')
    .then(({ registerWorker }) => registerWorker())
    // A failed registration (private mode, storage full) leaves an app that works online: log it.
    .catch((err: unknown) => {
      console.warn('Service worker registration failed', err);
      updateReadiness({ worker: 'unsupported' });
    });
}
