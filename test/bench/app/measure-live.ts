/**
 * Issue #24.2 (S18): live updates on an open page, and what an idle tablet costs.
 *
 * - Change → visible: the coach's Participants page is open; an administrator renames a participant
 *   the page shows (PUT over HTTP, from the bench process); the time from just before the PUT to
 *   the first frame whose card shows the new name (a MutationObserver in the page). Two clocks on
 *   one machine, as the facility rows: the bench's Date.now() and the page's timeOrigin + now().
 *   10 runs, one at a time, each on the first card (the list sorts by enrollment date, so a rename
 *   does not move it).
 * - Idle minute: the same page left alone for 60 s, online and visible; every request the browser
 *   context makes (service worker included), the change stream's own opening excepted.
 */
import type { Page, Request } from 'playwright-core';
import type { Api } from './api-client';
import { settle } from './browser';

export interface LiveChange {
  runs: number[];
  p95: number;
  /**
   * API requests the page made from the PUT to the new name on screen, per run: the pull the
   * stream's notice asked for (the stream itself opened before and stays open, so it is not among them).
   */
  requests: number[];
}

export interface IdleMinute {
  /** Requests besides the change stream. */
  requests: number;
  urls: string[];
  /** The stream's (re)openings in the minute (0 when it stayed open). */
  streamOpenings: number;
  windowMs: number;
}

const EVENTS_PATH = /\/api\/apps\/[^/]+\/events$/;

async function openParticipants(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Participants' }).first().click();
  await page.locator('#main a[href*="participantdetail"] h3').first().waitFor({ timeout: 120_000 });
  await settle(page, 1_000);
}

export async function measureLiveChange(page: Page, writer: Api, appId: string, runs = 10): Promise<LiveChange> {
  let during: string[] | null = null;
  const onRequest = (r: Request) => {
    const path = new URL(r.url()).pathname;
    if (during && path.startsWith('/api/')) during.push(path);
  };
  page.context().on('request', onRequest);
  await openParticipants(page);
  const card = page.locator('#main a[href*="participantdetail"]').first();
  const id = new URL((await card.getAttribute('href')) ?? '', 'http://x').searchParams.get('id');
  if (!id) throw new Error('no participant card on the page');
  const original = ((await card.locator('h3').textContent()) ?? '').trim();
  const last = original.split(' ').slice(1).join(' ');
  const out: number[] = [];
  const requests: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const first = `Live${i}q${Date.now().toString(36).slice(-4)}`;
      const seen = page.evaluate((text) => {
        const found = () => [...document.querySelectorAll('#main h3')].some((h) => h.textContent?.trim() === text);
        return new Promise<number>((resolve) => {
          if (found()) return resolve(performance.timeOrigin + performance.now());
          const observer = new MutationObserver(() => {
            if (!found()) return;
            observer.disconnect();
            resolve(performance.timeOrigin + performance.now());
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        });
      }, `${first} ${last}`);
      await page.waitForTimeout(50); // the observer is in place
      during = [];
      const t0 = Date.now();
      await writer.put(`/apps/${appId}/entities/Participant/${id}`, { first_name: first });
      const at = await Promise.race([seen, page.waitForTimeout(90_000).then(() => NaN)]);
      if (Number.isNaN(at)) throw new Error(`run ${i + 1}: the new name did not show within 90 s`);
      out.push(at - t0);
      requests.push(during.length);
      during = null;
      await settle(page, 600);
    }
  } finally {
    page.context().off('request', onRequest);
    await writer.put(`/apps/${appId}/entities/Participant/${id}`, { first_name: original.split(' ')[0] }).catch(() => undefined);
  }
  const sorted = [...out].sort((a, b) => a - b);
  return { runs: out, p95: sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)], requests };
}

export async function measureIdleMinute(page: Page, windowMs = 60_000): Promise<IdleMinute> {
  await openParticipants(page);
  await settle(page, 3_000); // the page's own first reads (usage log, counts) are not idle
  const seen: Request[] = [];
  const on = (r: Request) => seen.push(r);
  page.context().on('request', on);
  await page.waitForTimeout(windowMs);
  page.context().off('request', on);
  const isStream = (r: Request) => EVENTS_PATH.test(new URL(r.url()).pathname);
  const others = seen.filter((r) => !isStream(r));
  return {
    requests: others.length,
    urls: others.map((r) => `${r.method()} ${new URL(r.url()).pathname}`),
    streamOpenings: seen.length - others.length,
    windowMs,
  };
}
