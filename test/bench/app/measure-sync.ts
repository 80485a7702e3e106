/**
 * First sign-in on an empty browser profile: time from the app page's navigation start (the
 * redirect back from /login) to the Dashboard showing all 10,000 participants with the header at
 * 'Up to date', and the JavaScript fetched before the Dashboard first rendered, gzipped here from
 * dist/ (zlib level 6, a typical server setting; the server sends the build's brotli copies, smaller still).
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { signIn } from './browser';
import { firstPageFiles } from './first-page-js';
import { marks, waitForMark } from './page-marks';

export interface InitialSync {
  appReadyMs: number;
  dashboardHeadingMs: number;
  figuresMs: number;
  syncedMs: number;
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
  await waitForMark(page, 'dashboard-synced', 300_000);
  const m = await marks(page);
  const heading = m['dashboard-heading'];
  const scripts = await page.evaluate(
    (before) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= before && new URL(e.name).pathname.endsWith('.js'))
        .map((e) => new URL(e.name).pathname),
    heading,
  );
  const intervals = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.startsWith('/api/'))
      .map((e) => [e.startTime, (e as PerformanceResourceTiming).responseEnd] as [number, number]),
  );
  const files = scripts.map((path) => {
    const file = join(distDir, path);
    const body = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
    return { path, raw: body.length, gzip: body.length ? gzipSync(body, { level: 6 }).length : 0 };
  });
  page.removeAllListeners('requestfinished');
  const needed = new Set(firstPageFiles(distDir, 'dashboard-page-'));
  const apiBytes = (await Promise.all(sized)).reduce((a, b) => a + b, 0);
  return {
    appReadyMs: m['app-ready'],
    dashboardHeadingMs: heading,
    figuresMs: m['dashboard-figures'],
    syncedMs: m['dashboard-synced'],
    apiRequests,
    apiBytes,
    apiBusyMs: unionLength(intervals.filter(([a]) => a <= m['dashboard-synced'])),
    slowestApiMs: Math.max(0, ...intervals.map(([a, b]) => b - a)),
    js: {
      files,
      raw: files.reduce((a, f) => a + f.raw, 0),
      gzip: files.reduce((a, f) => a + f.gzip, 0),
      neededGzip: files.filter((f) => needed.has(f.path)).reduce((a, f) => a + f.gzip, 0),
      neededFiles: files.filter((f) => needed.has(f.path)).length,
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
