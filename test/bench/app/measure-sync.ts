/**
 * First sign-in on an empty browser profile: time from the app page's navigation start (the
 * redirect back from /login) to the Dashboard showing all 10,000 participants with the header at
 * 'Up to date', and the JavaScript fetched before the first screen rendered, gzipped here from
 * dist/ (zlib level 6, a typical server setting; the server sends the build's brotli copies, smaller still).
 *
 * Issue #14: the first sign-in on a device shows "Set a PIN for this tablet" first, and the sync
 * starts once the PIN is saved. The coach's typing is not the app's time: the sync figure is
 * navigation → PIN screen usable + Save PIN click → synced (both parts kept, and the typing).
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { signIn } from './browser';
import { setPinOnScreen } from './device-lock';
import { DASHBOARD_FIRST_PAGE, firstPageFiles } from './first-page-js';
import { marks, takeSealedCounts, waitForMark, type SealedCounts } from './page-marks';

export interface InitialSync {
  /** Navigation → the app (after Save PIN); app time, the typing left out like every figure here. */
  appReadyMs: number;
  dashboardHeadingMs: number;
  figuresMs: number;
  /** The app's time to a synced Dashboard: pinScreenMs + syncedAfterSaveMs (the typing left out). */
  syncedMs: number;
  /** Navigation → "Set a PIN for this tablet" usable. */
  pinScreenMs: number;
  /** Save PIN click → Dashboard synced (Argon2id of the PIN, then the whole sync). */
  syncedAfterSaveMs: number;
  /** PIN screen usable → Save PIN click: the bench typing the PIN twice (not counted). */
  typingMs: number;
  /** Navigation → synced as the clock ran, typing included. */
  wallMs: number;
  /** The deviceKey request (the server's per-user key, before the PIN screen), start → end. */
  deviceKeyMs: number | null;
  /** Sealed rows written to / read from IndexedDB by the page up to the synced Dashboard (MarkOptions.countSealed). */
  sealed: SealedCounts | null;
  apiRequests: number;
  apiBytes: number;
  /** Time some API request was in flight (union of their intervals): the server + network share. */
  apiBusyMs: number;
  /** The largest single API answer, start → last byte. */
  slowestApiMs: number;
  js: { files: { path: string; raw: number; gzip: number }[]; raw: number; gzip: number; neededGzip: number; neededFiles: number };
}

export async function measureInitialSync(page: Page, baseUrl: string, distDir: string, email: string, password: string): Promise<InitialSync> {
  let apiRequests = 0;
  const sized: Promise<number>[] = [];
  page.on('requestfinished', (r) => {
    if (!new URL(r.url()).pathname.startsWith('/api/')) return;
    apiRequests += 1;
    sized.push(r.sizes().then((s) => s.responseBodySize + s.responseHeadersSize).catch(() => 0));
  });
  await signIn(page, baseUrl, email, password);
  const pin = await setPinOnScreen(page);
  await waitForMark(page, 'dashboard-synced', 300_000);
  const sealed = await takeSealedCounts(page);
  const m = await marks(page);
  const heading = m['dashboard-heading'];
  // After the PIN: the app's own time runs on from the PIN screen, without the typing.
  const app = (mark: number) => pin.screenMs + (mark - pin.submitMs);
  // The first screen this start renders is the PIN screen: the JavaScript fetched before it.
  const firstScreen = Math.min(pin.screenMs, heading);
  const scripts = await page.evaluate(
    (before) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= before && new URL(e.name).pathname.endsWith('.js'))
        .map((e) => new URL(e.name).pathname),
    firstScreen,
  );
  const intervals = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.startsWith('/api/'))
      .map((e) => [e.startTime, (e as PerformanceResourceTiming).responseEnd] as [number, number]),
  );
  const deviceKeyMs = await page.evaluate(() => {
    const e = performance.getEntriesByType('resource').find((r) => new URL(r.name).pathname.endsWith('/functions/deviceKey')) as PerformanceResourceTiming | undefined;
    return e ? e.responseEnd - e.startTime : null;
  });
  const sizeOf = (path: string) => {
    const file = join(distDir, path);
    const body = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
    return { path, raw: body.length, gzip: body.length ? gzipSync(body, { level: 6 }).length : 0 };
  };
  const files = scripts.map(sizeOf);
  page.removeAllListeners('requestfinished');
  // A returning start that opens without the PIN (online, signed in) renders the Dashboard first:
  // what it needs, from the build (this run's first page was the PIN screen).
  const dashboardStart = firstPageFiles(distDir, DASHBOARD_FIRST_PAGE).map(sizeOf);
  const apiBytes = (await Promise.all(sized)).reduce((a, b) => a + b, 0);
  return {
    appReadyMs: app(m['app-ready']),
    dashboardHeadingMs: app(heading),
    figuresMs: app(m['dashboard-figures']),
    syncedMs: app(m['dashboard-synced']),
    pinScreenMs: pin.screenMs,
    syncedAfterSaveMs: m['dashboard-synced'] - pin.submitMs,
    typingMs: pin.submitMs - pin.screenMs,
    wallMs: m['dashboard-synced'],
    deviceKeyMs,
    sealed,
    apiRequests,
    apiBytes,
    apiBusyMs: unionLength(intervals.filter(([a]) => a <= m['dashboard-synced'])),
    slowestApiMs: Math.max(0, ...intervals.map(([a, b]) => b - a)),
    js: {
      files,
      raw: files.reduce((a, f) => a + f.raw, 0),
      gzip: files.reduce((a, f) => a + f.gzip, 0),
      neededGzip: dashboardStart.reduce((a, f) => a + f.gzip, 0),
      neededFiles: dashboardStart.length,
    },
  };
}

/** Total length covered by a set of [start, end] intervals. */
export function unionLength(intervals: readonly [number, number][]): number {
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of [...intervals].sort((x, y) => x[0] - y[0])) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}
