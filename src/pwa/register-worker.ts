import { Workbox } from 'workbox-window';
import { wireUpdateFlow } from './update-flow';
import { showUpdateToast } from './update-toast';

/**
 * Registers dist/sw.js through workbox-window and wires the update prompt (issue #5.3). Its own
 * chunk with workbox-window, imported by registerPwa (register-pwa.ts) once the first page is on
 * screen, so none of it is part of the first page's JavaScript (issue #11.6).
 */
export function registerWorker(): Promise<unknown> {
  const wb = new Workbox('/sw.js', { scope: '/' });
  wireUpdateFlow(wb, {
    onUpdateReady: showUpdateToast,
    reload: () => window.location.reload(),
    onControllerChange: (fn) => navigator.serviceWorker.addEventListener('controllerchange', fn, { once: true }),
    skipWaiting: () =>
      void navigator.serviceWorker
        .getRegistration()
        .then((r) => r?.waiting?.postMessage({ type: 'SKIP_WAITING' }))
        .catch(() => undefined),
    every: (ms, fn) => {
      const t = window.setInterval(fn, ms);
      return () => window.clearInterval(t);
    },
  });
  return wb.register();
}
