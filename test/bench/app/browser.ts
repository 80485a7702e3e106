/**
 * Chromium for the bench: the flags of test/support/processes.ts, a persistent profile (so a "cold start"
 * can close the browser and open it again on the same IndexedDB and service worker), request
 * logging, CPU throttling and sign-in through the server's /login page.
 */
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page, type Request } from 'playwright-core';
import { installMarks, type MarkOptions } from './page-marks';
import { CHROMIUM, CHROMIUM_ARGS } from '../../support/processes';


/** A 1280×800 tablet-in-landscape / small laptop window: 3 card columns on the Participants grid. */
const VIEWPORT = { width: 1280, height: 800 };

export async function openProfile(profileDir: string, marks: MarkOptions, offline = false): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: VIEWPORT,
    offline,
  });
  await context.addInitScript(NAME_SHIM);
  await context.addInitScript(installMarks, marks);
  return context;
}

/**
 * tsx compiles with esbuild's keepNames, which wraps inner functions in `__name(fn, "name")`;
 * functions handed to the page (init scripts, page.evaluate) then need that helper there too.
 */
export const NAME_SHIM = { content: 'globalThis.__name = globalThis.__name || ((fn) => fn);' };

export function launchPlain(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

export async function firstPage(context: BrowserContext): Promise<Page> {
  return context.pages()[0] ?? (await context.newPage());
}

/** Signs in through /login and waits for the app page `path`; `beforeClick` runs with the form filled in. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string, path = '/', beforeClick?: () => void): Promise<void> {
  await page.goto(`${baseUrl}/login?from_url=${encodeURIComponent(`${baseUrl}${path}`)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  beforeClick?.();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === baseUrl && !url.pathname.startsWith('/login') && !url.searchParams.has('code'), { timeout: 60_000 });
}

const throttleSessions = new WeakMap<Page, CDPSession>();

/** 1 = no throttling; 4 = a low-end tablet (issue #6). The session stays open: detaching would drop the setting. */
export async function setCpuRate(page: Page, rate: number): Promise<void> {
  let cdp = throttleSessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    throttleSessions.set(page, cdp);
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/** Rejects after ms with a message naming what did not finish (a hung step must not hang the run). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no result within ${Math.round(ms / 1000)} s`)), ms);
    }),
  ]);
}

export async function serviceWorkerControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
  });
}

/** Collects the requests a page makes from start() until stop(). */
export function recordRequests(page: Page) {
  const seen: Request[] = [];
  const on = (r: Request) => seen.push(r);
  return {
    start() {
      seen.length = 0;
      page.on('request', on);
    },
    stop(): Request[] {
      page.off('request', on);
      return [...seen];
    },
  };
}

/** Waits until nothing has rendered for a moment, so one measurement does not overlap the last. */
export async function settle(page: Page, ms = 400): Promise<void> {
  await page.waitForTimeout(ms);
}
