import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pwaOptions } from './src/pwa/pwa-options';
import { precompress } from './scripts/precompress.mjs';
import { E2E_BUILD_MARK } from './shared/config';

// The API server (npm start) serves dist/ and /api on one origin; in dev, Vite proxies /api and
// /login to it so the app keeps its same-origin calls. VitePWA writes dist/sw.js (workbox
// generateSW) and dist/manifest.webmanifest: see src/pwa/pwa-options.ts. precompress() then writes
// .br and .gz of every text file for the server to send by Accept-Encoding (issue #11).
// `vite build --mode e2e` builds the browser tests' copy into dist-e2e/ (never dist/, which
// `npm start` serves): the one difference is that a test may ask it for a cheaper PIN derivation
// (newWrapParams in src/data/vault/keys.ts).
export default defineConfig(({ mode }) => ({
  plugins: [
    react(),
    tailwindcss(),
    VitePWA(pwaOptions),
    precompress(),
    mode === 'e2e' && { name: 'passage-e2e-mark', transformIndexHtml: (html: string) => html.replace('<head>', `<head>${E2E_BUILD_MARK}`) },
  ],
  resolve: {
    alias: {
      // TanStack Store imports the shim of useSyncExternalStore (for React 16/17); React 19 has it
      // built in, and the same package's non-shim entry uses that one: the shim's fallback code is
      // not shipped in every start's JavaScript (issue #11.6).
      'use-sync-external-store/shim/with-selector': 'use-sync-external-store/with-selector',
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:4173',
      '/login': 'http://127.0.0.1:4173',
    },
  },
  build: {
    outDir: mode === 'e2e' ? 'dist-e2e' : 'dist',
    // No source maps in dist/ (npm start would publish them); SOURCEMAP=1 builds hidden ones for
    // debugging a build, and the server refuses to serve .map files either way.
    sourcemap: process.env.SOURCEMAP === '1' ? 'hidden' : false,
    // The first page's JavaScript (issue #11.6, budget 150 KB gzipped) in few files instead of
    // two dozen: small files compress badly and each cross-chunk import costs bytes.
    // - 'initial': everything the entry imports statically (React, Dexie, the shell, the PIN
    //   screens), loaded on every start anyway; left to itself rolldown splits it into shared chunks.
    // - 'dashboard-page': what a returning start that opens on the Dashboard renders besides the
    //   entry: the router with the route table (src/app/app-routes.tsx), the app's layout with its
    //   sidebar, the page, and the parts the Dashboard shares with other screens (queries, badges,
    //   date formatting): one file instead of nine. Every page of the app needs the router and the
    //   layout, so this chunk comes on any start that opens the app; the Dashboard's own code in it
    //   is under 2 KB gzipped. A first page shown instead of the app (Set a PIN, Passage is locked)
    //   needs the entry alone. Not the mobile sidebar (headlessui, only on narrow screens). Every
    //   chunk is still preloaded after the first render and precached by the service worker
    //   (src/app/screens.ts), so offline start is unchanged.
    // - 'shared': every other module that two or more chunks import (the icons, the parts and
    //   queries screens share, headlessui, sonner), with what they import: one file instead of
    //   about fifty, 49 of them under 2 KB. Each screen keeps a chunk of its own. Right after the
    //   first page every chunk is loaded (src/app/screens.ts) and the service worker precaches
    //   them: 31 files instead of 82, so a first sign-in makes 51 fewer requests, each costing a
    //   round trip on a facility link and CPU in every browser process (a sign-in with its first
    //   2 s: 3.06 CPU-s instead of 3.41, eight sign-ins four times each, issue #27.5).
    // No modulepreload polyfill: browsers without modulepreload (Safari < 17) just fetch the
    // entry's imports when they reach them; nothing depends on the links.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            { name: 'dashboard-page', test: /src[\\/](screens[\\/]dashboard|app[\\/]layout[\\/](?!mobile-sidebar)|app[\\/](app-routes|routes)\.tsx)/ },
            { name: 'shared', minShareCount: 2 },
          ],
        },
      },
    },
  },
}));
