/**
 * Incremental pull: another user changes 10 participants on the server; the coach presses
 * 'Sync now'. Time from the click to the 10 new values being in the local mirror (read through
 * the app's own Dexie schema), and every byte of every request of that sync (headers + bodies).
 * Issue #24: the tab reads as hidden meanwhile, so the change stream (S18, held only while visible)
 * is closed and its notices do not pull the changes before the click: the figure is the pull's own.
 */
import type { Page } from 'playwright-core';
import type { Api } from './api-client';
import { recordRequests, settle } from './browser';
import { injectHooks } from './inject-bundle';

export interface PullResult {
  ms: number;
  requests: number;
  bytes: number;
  urls: string[];
  /** Where the time went: each API request's start after the click and its duration (resource timing). */
  phases?: Array<{ path: string; startMs: number; durationMs: number }>;
}

/** `areaCode` makes the new values differ from an earlier run's on the same participants. */
export async function measureIncrementalPull(page: Page, writer: Api, appId: string, ids: readonly string[], hooksScript: string, areaCode = '999'): Promise<PullResult> {
  // Unlocked with the PIN before the clock starts (the phones are sealed fields, issue #14).
  await injectHooks(page, hooksScript);
  // Let any sync in progress finish, so the click starts a fresh one.
  await page.locator('[data-sync-state="up-to-date"]').first().waitFor({ timeout: 120_000 });
  await settle(page, 500);
  const phones = ids.map((_, i) => `(${areaCode}) 555-${String(1000 + i)}`);
  await setHidden(page, true);
  await settle(page, 300);
  try {
    for (let i = 0; i < ids.length; i++) await writer.put(`/apps/${appId}/entities/Participant/${ids[i]}`, { phone: phones[i] });
    return await pullAfterClick(page, ids, phones);
  } finally {
    await setHidden(page, false);
  }
}

/** What the tab says of its visibility (the engine follows `visibilitychange`, src/data/runtime.ts). */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
    Object.defineProperty(document, 'hidden', { value: h, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

async function pullAfterClick(page: Page, ids: readonly string[], phones: string[]): Promise<PullResult> {

  const rec = recordRequests(page);
  rec.start();
  const arm = page.evaluate(
    async ({ ids, phones }) => {
      const hooks = (window as unknown as { __benchHooks: { phones(ids: string[]): Promise<(string | null)[]> } }).__benchHooks;
      const clicked = await new Promise<number>((resolve) =>
        document.addEventListener('click', (e) => resolve(e.timeStamp), { capture: true, once: true }),
      );
      // Poll the mirror every 5 ms: cheap next to the sync itself, and fine-grained enough for a 100 ms goal.
      for (;;) {
        const now = await hooks.phones(ids);
        if (now.every((p, i) => p === phones[i])) {
          const ms = performance.now() - clicked;
          const phases = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter((e) => e.startTime >= clicked && new URL(e.name).pathname.startsWith('/api/'))
            .map((e) => ({ path: new URL(e.name).pathname, startMs: Math.round(e.startTime - clicked), durationMs: Math.round(e.duration) }));
          return { ms, phases };
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    { ids: [...ids], phones },
  );
  await page.waitForTimeout(50);
  await page.getByRole('button', { name: 'Sync now' }).first().click();
  const { ms, phases } = await arm;
  await page.locator('[data-sync-state="up-to-date"]').first().waitFor({ timeout: 60_000 });
  await settle(page, 300);
  const seen = rec.stop().filter((r) => new URL(r.url()).pathname.startsWith('/api/'));
  let bytes = 0;
  for (const r of seen) {
    const s = await r.sizes().catch(() => null);
    if (s) bytes += s.requestHeadersSize + s.requestBodySize + s.responseHeadersSize + s.responseBodySize;
  }
  return { ms, phases, requests: seen.length, bytes, urls: seen.map((r) => `${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search.slice(0, 120)}`) };
}

/**
 * Issue #24.1: the same pull on a server without the change feed (S17), the per-entity fallback.
 * The page's requests for `changeFeed` are answered 404 as a plain platform would; one Sync now
 * first lets the engine learn it (remembered for the engine's life), then the measured pull runs.
 */
export async function measureIncrementalPullWithoutFeed(page: Page, writer: Api, appId: string, ids: readonly string[], hooksScript: string, areaCode: string): Promise<PullResult> {
  const plain = '**/functions/changeFeed';
  await page.route(plain, (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ message: 'No such function', code: 'NOT_FOUND' }) }),
  );
  try {
    await page.locator('[data-sync-state="up-to-date"]').first().waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Sync now' }).first().click();
    await settle(page, 500);
    const result = await measureIncrementalPull(page, writer, appId, ids, hooksScript, areaCode);
    if (result.urls.some((u) => u.includes('/functions/changeFeed'))) throw new Error('the engine still asked for the change feed');
    return result;
  } finally {
    await page.unroute(plain);
  }
}
