import { Workbox } from 'workbox-window';
import { wireUpdateFlow } from './update-flow';
import { showUpdateToast } from './update-toast';

/**
 * Registers the service worker the build writes (dist/sw.js, see pwa-options.ts) and wires the
 * update prompt. Called once at boot by src/main.tsx. Not in dev (`vite` serves no sw.js) and not
 * where service workers do not exist (jsdom, old browsers): the app then simply runs online.
 */
export function registerPwa(): Workbox | null {
  if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const wb = new Workbox('/sw.js', { scope: '/' });
  wireUpdateFlow(wb, {
    onUpdateReady: showUpdateToast,
    reload: () => window.location.reload(),
    every: (ms, fn) => {
      const t = window.setInterval(fn, ms);
      return () => window.clearInterval(t);
    },
  });
  // A failed registration (private mode, storage full) leaves an app that works online: log it.
  wb.register().catch((err: unknown) => console.warn('Service worker registration failed', err));
  return wb;
}
