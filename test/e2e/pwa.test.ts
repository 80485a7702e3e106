import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { DEMO, setupHarness, tokenOf } from './harness';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/processes';
import { serviceWorkerReady } from './offline-world';

/**
 * Issue #5.1–5.2 in Chromium against the real server: the service worker installs and precaches
 * the app shell, it never caches an API answer, and Chromium reports Passage installable.
 */
const h = setupHarness();

describe('PWA: service worker and install (issue #5)', () => {
  it('Chromium reports no installability errors and the manifest is what the app needs', async () => {
    // Installability is never reported for incognito contexts, so this test uses a real profile.
    const profile = mkdtempSync(join(tmpdir(), 'passage-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await h().signIn(page, DEMO.coach);
      await serviceWorkerReady(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
      expect(installabilityErrors).toEqual([]);
      const manifest = await page.evaluate(async () => {
        const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href');
        return href ? ((await (await fetch(href)).json()) as Record<string, unknown>) : null;
      });
      expect(manifest).toMatchObject({ name: 'Passage', short_name: 'Passage', start_url: '/', scope: '/', display: 'standalone' });
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('precaches the app shell and never caches an API answer', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.coach);
    await serviceWorkerReady(page);
    // Let the first sync pull everything, so API calls certainly happened under the worker.
    await page.waitForFunction(async (token) => {
      const r = await fetch('/api/apps/passage/entities/Participant?limit=1', {
        headers: { Authorization: `Bearer ${token}`, 'X-App-Id': 'passage' },
      });
      return r.ok;
    }, tokenOf(page));
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    expect(cached).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', '/icons/icon-192.png']));
    expect(cached.some((u) => u.startsWith('/assets/') && u.endsWith('.js'))).toBe(true);
    expect(cached.filter((u) => u.startsWith('/api'))).toEqual([]);
    // Issue #11: the build's .br/.gz copies are not precached (the browser decodes what it gets),
    // and the app's script reached this page compressed and still ran.
    expect(cached.filter((u) => /\.(br|gz)$/.test(u))).toEqual([]);
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        // From the network, not the worker's precache (which hands back the decoded bytes it stored).
        .filter((e) => /^\/assets\/.+\.js$/.test(new URL(e.name).pathname) && e.encodedBodySize > 0 && e.workerStart === 0)
        .map((e) => ({ encoded: e.encodedBodySize, decoded: e.decodedBodySize })),
    );
    // Judged on the scripts where it matters: a chunk of a few hundred bytes (an icon) may travel as
    // it is, and its timing entry then says little (headers and a service worker answer blur it).
    const sizeable = scripts.filter((s) => s.decoded >= 2048);
    expect(sizeable.length).toBeGreaterThan(0);
    for (const s of sizeable) expect(s.encoded).toBeLessThan(s.decoded / 2);
    // The worker file itself must be revalidated on every check (server: no-cache).
    const res = await fetch(`${h().baseUrl}/sw.js`);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('offline, /login and /api are left to the network (not answered with the app shell)', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.coach);
    await serviceWorkerReady(page);
    await page.context().setOffline(true);
    await expect(page.goto(`${h().baseUrl}/login`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    await expect(page.goto(`${h().baseUrl}/api/apps/public/prod/public-settings/by-id/passage`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    await page.context().setOffline(false);
  });
});
