import type { VitePWAOptions } from 'vite-plugin-pwa';
import { PRODUCT } from '../../shared/config';

/**
 * The service worker and web manifest (issue #5). Kept apart from vite.config.ts so a unit test can
 * check what the build will do: which navigations fall back to the app shell, which never do.
 */

/** Colours of public/icon.svg: the tile (#1e3a5f) and the page background (slate-50). */
export const THEME_COLOR = '#1e3a5f';
export const BACKGROUND_COLOR = '#f8fafc';

/**
 * Navigations the service worker must leave to the server: the API (data lives in Dexie, and an
 * API answer replayed from a cache would be a stale lie) and the server-rendered login page.
 */
export const NAVIGATE_FALLBACK_DENYLIST: RegExp[] = [/^\/api(\/|$)/, /^\/login(\/|\?|$)/];

export const MANIFEST = {
  name: PRODUCT,
  short_name: PRODUCT,
  description: 'Participant, cohort and program management for reentry training programs',
  start_url: '/',
  scope: '/',
  display: 'standalone' as const,
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  // Made from public/icon.svg by scripts/make-icons.mjs; 192 and 512 are what Chromium requires.
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};

export const pwaOptions: Partial<VitePWAOptions> = {
  strategies: 'generateSW',
  // 'prompt': a new version waits until the coach says Reload (src/pwa/update-flow.ts), so a form
  // half filled in is never reloaded away under them.
  registerType: 'prompt',
  // src/pwa/register-pwa.ts registers through workbox-window; no injected script.
  injectRegister: false,
  // globPatterns below already precache everything in public/ (icons included); listing them here
  // too would only add duplicate precache entries.
  includeManifestIcons: false,
  manifest: MANIFEST,
  workbox: {
    // The app shell: every built script, style, page and icon (the plugin adds the manifest itself).
    globPatterns: ['**/*.{js,css,html,svg,png,ico}'],
    // Every page path of spec 2.1 (with its query string) is a client route served by index.html.
    navigateFallback: 'index.html',
    navigateFallbackDenylist: NAVIGATE_FALLBACK_DENYLIST,
    // No runtimeCaching: API responses are never cached by the service worker (data is in Dexie).
    cleanupOutdatedCaches: true,
    // The first worker takes over the page that installed it, so a coach who signs in once and then
    // loses the connection can already navigate offline without a reload first. Updates still
    // wait for the coach's Reload ('prompt'): claiming happens only when a worker activates.
    clientsClaim: true,
    // Source maps are for developers, not for tablets on a facility network. The build's .br/.gz
    // copies (scripts/precompress.mjs) are the same files again: the server picks them per request.
    globIgnores: ['**/*.map', '**/*.br', '**/*.gz'],
    // The main bundle (React, router, Dexie) is about 600 KB; the 2 MB default leaves room.
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
};
