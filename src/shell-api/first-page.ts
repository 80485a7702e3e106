import { useSyncExternalStore } from 'react';

/**
 * "The first page is on screen" (issue #11.6). On a 1 Mbps facility link every byte fetched
 * before the first page competes with it, so what the first page does not need waits for this:
 * the toaster (sonner) and the service worker's registration (workbox-window). Marked by the
 * router's first render (src/app/app.tsx), by a screen shown instead of the app (the PIN screens,
 * signed-out, access restricted, a start-up error: src/app/auth/auth-gate.tsx), and at the latest
 * FIRST_PAGE_FALLBACK_MS after the app mounted, so nothing waits for it forever.
 */
export const FIRST_PAGE_FALLBACK_MS = 5_000;

let shown = false;
const listeners = new Set<() => void>();

export function markFirstPageShown(): void {
  if (shown) return;
  shown = true;
  for (const listener of [...listeners]) listener();
  listeners.clear();
}

export function firstPageShown(): boolean {
  return shown;
}

/** Runs `fn` once the first page is on screen (at once when it already is). Returns a cancel. */
export function afterFirstPage(fn: () => void): () => void {
  if (shown) {
    fn();
    return () => undefined;
  }
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function useFirstPageShown(): boolean {
  return useSyncExternalStore(afterFirstPage, firstPageShown, firstPageShown);
}
