/**
 * The facility-link profile of `npm run bench` (issue #11): a fresh tablet behind the throttling
 * proxy (facility-link.ts, delay-proxy.ts) opens Passage for the first time, signs in, syncs the
 * whole data set, pulls 10 remote changes and pushes 1,000 ops queued offline; and the online-only
 * client of spec 7.3 does its Participants page and its 1,000 creates through the same link.
 *
 * Times span two processes on one machine: the bench's Date.now() at the action (navigation, the
 * Sign in click) and the page's performance.timeOrigin + performance.now() at the result.
 */
import type { Browser, Page } from 'playwright-core';
import { NAME_SHIM, signIn } from './browser';
import type { DelayProxy, LinkStats } from './delay-proxy';
import { setPinOnScreen } from './device-lock';
import { injectHooks } from './inject-bundle';

export interface FirstVisit {
  /** Navigation to the app's root → the sign-in page loaded (its load event: form and styles in place). */
  ms: number;
  requests: number;
  bytesDown: number;
}

const diff = (a: LinkStats, b: LinkStats): LinkStats => ({
  requests: b.requests - a.requests,
  up: b.up - a.up,
  down: b.down - a.down,
  apiRequests: b.apiRequests - a.apiRequests,
  apiUp: b.apiUp - a.apiUp,
  apiDown: b.apiDown - a.apiDown,
});

/** A first visit on an empty profile: the app shell, then the app sends the visitor to /login. */
export async function measureFirstVisit(page: Page, link: DelayProxy): Promise<FirstVisit> {
  const before = link.stats();
  const t0 = Date.now();
  await page.goto(`${link.baseUrl}/`, { waitUntil: 'commit' });
  await page.getByLabel('Email').waitFor({ state: 'visible', timeout: 120_000 });
  await page.waitForLoadState('load');
  const loaded = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return performance.timeOrigin + nav.loadEventEnd;
  });
  const used = diff(before, link.stats());
  return { ms: loaded - t0, requests: used.requests, bytesDown: used.down };
}

export interface FacilitySync {
  /**
   * Sign in click → the Participants page shows cards with every participant and cohort in the
   * mirror, the app's time: Sign in click → "Set a PIN" usable + Save PIN click → usable (issue
   * #14: the sync starts once the PIN is saved; the typing in between is left out).
   */
  participantsUsableMs: number;
  /** Sign in click → every table in the mirror and the header at 'Up to date' (the same way). */
  completeMs: number;
  /** Sign in click → "Set a PIN for this tablet" usable (sign-in, the app through the link, the server's key). */
  pinScreenMs: number;
  /** Save PIN click → Participants usable. */
  usableAfterSaveMs: number;
  /** PIN screen usable → Save PIN click: the bench typing (not counted). */
  typingMs: number;
  /** Sign-in and sync API traffic, both directions, as it crossed the link (encoded bodies + heads). */
  apiBytes: number;
  apiRequests: number;
  /** Everything else that crossed meanwhile (the app's assets, the service worker's precache). */
  otherBytes: number;
  counts: Record<string, number>;
}

type Hooks = { mirrorCounts(): Promise<Record<string, number>> };

/**
 * Signs in on the sign-in page (through the link) with Participants as the destination, then
 * watches the mirror fill: `expected` are the server's row counts per mirror table.
 */
export async function measureFacilitySync(page: Page, link: DelayProxy, email: string, password: string, hooksScript: string, expected: Record<string, number>): Promise<FacilitySync> {
  let before = link.stats();
  let clicked = 0;
  await signIn(page, link.baseUrl, email, password, '/Participants', () => {
    before = link.stats();
    clicked = Date.now();
  });
  const pin = await setPinOnScreen(page);
  const at = await page.evaluate(({ screenMs, submitMs }) => ({ screen: performance.timeOrigin + screenMs, saved: performance.timeOrigin + submitMs }), pin);
  await injectHooks(page, hooksScript, null);
  const result = await page.evaluate(
    async ({ expected }) => {
      const hooks = (window as unknown as { __benchHooks: Hooks }).__benchHooks;
      const full = (counts: Record<string, number>, tables: string[]) => tables.every((t) => counts[t] >= expected[t]);
      let usable = 0;
      for (;;) {
        const counts = await hooks.mirrorCounts();
        const now = performance.timeOrigin + performance.now();
        if (!usable && full(counts, ['participants', 'cohorts']) && document.querySelector('a[href*="participantdetail" i]')) usable = now;
        if (usable && full(counts, Object.keys(expected)) && document.querySelector('[data-sync-state="up-to-date"]')) return { usable, complete: now, counts };
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    { expected },
  );
  const used = diff(before, link.stats());
  const pinScreenMs = at.screen - clicked;
  return {
    participantsUsableMs: pinScreenMs + (result.usable - at.saved),
    completeMs: pinScreenMs + (result.complete - at.saved),
    pinScreenMs,
    usableAfterSaveMs: result.usable - at.saved,
    typingMs: at.saved - at.screen,
    apiBytes: used.apiUp + used.apiDown,
    apiRequests: used.apiRequests,
    otherBytes: used.up + used.down - used.apiUp - used.apiDown,
    counts: result.counts,
  };
}

export interface BaselinePush {
  /** First request issued → all answered; null when not all within capMs. */
  ms: number | null;
  sent: number;
  answered: number;
  capMs: number;
}

/**
 * The online-only client's counterpart of 1,000 queued ops: 1,000 creates sent while connected,
 * each its own request (what the original client does per saved form), the browser running them
 * 6 at a time. Stops waiting after capMs.
 */
export async function runBaselinePush(browser: Browser, origin: string, appId: string, token: string, n: number, capMs: number): Promise<BaselinePush> {
  const context = await browser.newContext();
  try {
    await context.addInitScript(NAME_SHIM);
    const page = await context.newPage();
    await page.goto(`${origin}/api/apps/public/prod/public-settings/by-id/${appId}`);
    const r = await page.evaluate(
      async ({ appId, token, n, capMs }) => {
        const headers = { 'X-App-Id': appId, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
        let answered = 0;
        let outstanding = 0;
        const waiting: (() => void)[] = [];
        const t0 = performance.now();
        const one = async (i: number) => {
          if (outstanding >= 64) await new Promise<void>((r) => waiting.push(r));
          outstanding += 1;
          try {
            const body = JSON.stringify({ first_name: 'Online', last_name: `baseline ${i + 1}`, custody_status: 'in-custody', program_status: 'active', enrollment_date: new Date().toISOString().slice(0, 10) });
            const res = await fetch(`/api/apps/${appId}/entities/Participant`, { method: 'POST', headers, body });
            if (res.ok) answered += 1;
            await res.arrayBuffer();
          } finally {
            outstanding -= 1;
            waiting.shift()?.();
          }
        };
        const all = Promise.all(Array.from({ length: n }, (_, i) => one(i)));
        const done = await Promise.race([all.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), capMs))]);
        return { ms: done ? performance.now() - t0 : null, answered };
      },
      { appId, token, n, capMs },
    );
    return { ms: r.ms, sent: n, answered: r.answered, capMs };
  } finally {
    await context.close();
  }
}
