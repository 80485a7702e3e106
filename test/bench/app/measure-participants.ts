/**
 * The Participants page after sync: click in the sidebar → first cards on screen, search keystroke
 * → updated results (count badge), and the peak JS heap while the page lists, scrolls and filters
 * 10,000 participants. Times come from the page (event.timeStamp → first frame showing the result).
 */
import type { Page } from 'playwright-core';
import { settle } from './browser';
import { waitForMark } from './page-marks';
import type { Keystroke } from './search-plan';

const navLink = (page: Page, name: string) => page.locator('nav').getByRole('link', { name, exact: true }).first();

export async function goToDashboard(page: Page, expectedParticipants: number): Promise<void> {
  await page.evaluate(() => window.__bench.watch('dashboard-back', () => window.__bench.statValue('Total Participants') !== null));
  await navLink(page, 'Dashboard').click();
  await waitForMark(page, 'dashboard-back', 60_000);
  void expectedParticipants;
}

/** Arms the marks for one sidebar click to the Participants page. */
async function armParticipants(page: Page): Promise<void> {
  await page.evaluate(() => {
    delete window.__bench.marks.click;
    document.addEventListener('click', (e) => (window.__bench.marks.click = e.timeStamp), { capture: true, once: true });
    window.__bench.watch(
      'participant-cards',
      () =>
        location.pathname.toLowerCase() === '/participants' &&
        document.querySelector('a[href*="participantdetail" i] h3') !== null &&
        document.querySelector('[data-testid="skeleton-card"]') === null,
    );
  });
}

/** `runs` times: Dashboard → click Participants → first cards. Returns each run in ms. */
export async function timeOpenParticipants(page: Page, runs: number, expectedParticipants: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    await goToDashboard(page, expectedParticipants);
    await settle(page, 500);
    await armParticipants(page);
    await navLink(page, 'Participants').click();
    const shown = await waitForMark(page, 'participant-cards', 60_000);
    const click = await page.evaluate(() => window.__bench.marks.click);
    out.push(shown - click);
  }
  return out;
}

/** Types the planned keystrokes in the search box; returns the time of each timed one, in ms. */
export async function timeSearch(page: Page, plan: readonly Keystroke[], wanted: number): Promise<number[]> {
  const box = page.getByPlaceholder('Search by name or email...');
  await box.click();
  const out: number[] = [];
  for (const step of plan) {
    const timed = step.timed && out.length < wanted;
    await page.evaluate(
      ({ expected }) => {
        const input = document.querySelector('input[type="search"]')!;
        delete window.__bench.marks.key;
        input.addEventListener('keydown', (e) => (window.__bench.marks.key = e.timeStamp), { capture: true, once: true });
        window.__bench.watch('results', () => document.querySelector('[aria-live="polite"]')?.textContent?.trim() === expected);
      },
      { expected: step.expected },
    );
    await page.keyboard.press(step.key);
    const shown = await waitForMark(page, 'results', 30_000);
    const key = await page.evaluate(() => window.__bench.marks.key);
    if (timed) out.push(shown - key);
  }
  return out;
}

/**
 * Peak JSHeapUsedSize (CDP Performance metrics, sampled every 50 ms) from a garbage-collected
 * Dashboard through opening Participants, scrolling the whole list and a few searches.
 */
export async function peakHeap(page: Page, plan: readonly Keystroke[], expectedParticipants: number): Promise<{ peak: number; start: number; samples: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await goToDashboard(page, expectedParticipants);
  await cdp.send('HeapProfiler.collectGarbage');
  const read = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  };
  const start = await read();
  let peak = start;
  let samples = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await read());
      samples += 1;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await armParticipants(page);
    await navLink(page, 'Participants').click();
    await waitForMark(page, 'participant-cards', 60_000);
    // The whole list, a screen at a time in 40 jumps (the grid mounts only what is in view).
    for (let i = 1; i <= 40; i++) {
      await page.evaluate((f) => {
        const el = document.scrollingElement!;
        const scrollers = [el, ...Array.from(document.querySelectorAll('main, main *')).filter((n) => n.scrollHeight > n.clientHeight + 100 && getComputedStyle(n).overflowY !== 'visible')];
        for (const s of scrollers) s.scrollTop = (s.scrollHeight - s.clientHeight) * f;
      }, i / 40);
      await page.waitForTimeout(60);
    }
    await timeSearch(page, plan.slice(0, 12), 0);
    await settle(page, 300);
  } finally {
    running = false;
    await sampler;
    await cdp.detach();
  }
  return { peak, start, samples };
}
