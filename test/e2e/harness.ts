/**
 * The browser-test harness: the real Passage server (server/main.ts as a child process, a fresh
 * temporary DATA_DIR and database with demo data, a free port, serving the browser tests' build
 * dist-e2e/) and Chromium through playwright-core. `npm test` builds dist/ and dist-e2e/ before
 * vitest runs.
 *
 *   import { setupHarness, DEMO } from './harness';
 *   const h = setupHarness();                      // beforeAll starts, afterAll stops
 *   it('…', async () => {
 *     const page = await h().newPage();            // fresh context: empty IndexedDB, no cookies
 *     await h().signIn(page, DEMO.coach);          // through the server's /login page
 *     await h().goto(page, '/participants');       // waits for the app to render
 *     await h().open(page, `/participantdetail?id=${id}`); // as a tap does: no reload, no PIN
 *     expect(await h().axe(page)).toEqual([]);     // serious/critical axe violations
 *   });
 *
 * One server per test file, sharing nothing with another file's: its own port (the one its server
 * says it listens on) and DATA_DIR; dist-e2e/ is only read (a test that deploys a new build copies
 * it first, offline-world.ts ownServer). Chromium is one per worker (workerBrowser), and every page
 * gets a context of its own, which is a fresh profile. So files may run side by side.
 *
 * The database: when the run has a PostgreSQL cluster (scripts/test.mjs starts one for the browser
 * run whenever PostgreSQL is installed), a copy of a template already migrated and seeded
 * (test/support/test-databases.ts): the server starts in about 1 CPU-second. A file that keeps the
 * default store covered end to end asks for PGlite (setupHarness({ store: 'pglite' }): the
 * walk-through and the offline day), which then starts as `npm start` does: PGlite in DATA_DIR,
 * seeded at start, about 4.3 CPU-seconds (issue #27.5).
 *
 * The PIN: dist-e2e/ is dist/ built in Vite's 'e2e' mode, whose one difference is that a page may
 * ask for a cheaper PIN derivation (newWrapParams, src/data/vault/keys.ts). newPage() asks for it
 * (lightPin) unless the test's subject is the derivation itself (newPage({ pin: 'production' }):
 * the vault holding the shipped parameters, two tabs trying PINs at once), which then pays the
 * shipped 64 MiB × 14 passes like a tablet does.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, freePort, startServerProcess, stopChild } from '../support/processes';
import { newTestDatabase } from '../support/test-databases';
import { E2E_PIN_COST_GLOBAL } from '../../src/data/vault/keys';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/** The browser tests' build (`vite build --mode e2e`), which every browser test's server serves. */
export const E2E_DIST = resolve(import.meta.dirname, '../../dist-e2e');

/**
 * Asks the e2e build, in every page of `context`, for one Argon2id pass over 1 MiB instead of the
 * shipped 14 over 64 MiB: about 0.002 CPU-second per PIN set or unlock instead of 1.1 (one pass
 * over 64 MiB, asked for until issue #27.5's last steps, cost 0.15). The browser tests are bound by
 * CPU, and before this a third of their renderers' time was this derivation (issue #27.5). A
 * production build ignores it (test/e2e/build-modes.test.ts).
 */
export async function lightPin(context: BrowserContext): Promise<void> {
  await context.addInitScript(([name, cost]) => {
    (globalThis as Record<string, unknown>)[name] = cost;
  }, [E2E_PIN_COST_GLOBAL, LIGHT_PIN_COST] as const);
}

/**
 * What every browser test's context asks for unless the test passes its own: reduced motion, as a
 * coach may set it on the tablet. With motion, a spinner or a skeleton's pulse (the sync chip turns
 * while the engine works, the first sync's notice, loading skeletons) has Chromium draw 60 frames
 * a second for as long as it shows, and the browser tests mostly wait for the engine. Three files
 * (participants, cohorts, first-sync), two rounds each way: the GPU process (Chromium's compositor)
 * took 2.9-3.4 CPU-s instead of 9.1-9.3 (issue #27.5). The app's reduced-motion rule (src/index.css)
 * ends animations at once and lets an endless one turn once; the walk-through checks both ways.
 */
export const CONTEXT_DEFAULTS = { reducedMotion: 'reduce' } as const satisfies BrowserContextOptions;

/** What lightPin asks for. */
export const LIGHT_PIN_COST = { iterations: 1, memory_kib: 1024 } as const;

export const DEMO_PASSWORD = 'demo-pass-2026';
/** The device PIN the browser tests choose after signing in (issue #14). */
export const TEST_PIN = '24681357';

/**
 * Past the device lock (issue #14): on 'Set a PIN for this tablet' choose TEST_PIN, on 'Passage is
 * locked' enter it; then wait until the app itself rendered. Returns which screen it passed.
 */
export async function passDeviceLock(page: Page, pin = TEST_PIN): Promise<'set-pin' | 'unlock' | 'none'> {
  await page.locator('[data-app-ready]').first().waitFor({ timeout: 30_000 });
  const lock = page.locator('[data-device-lock]');
  if (!(await lock.count())) return 'none';
  const setting = (await page.getByRole('heading', { name: 'Set a PIN for this tablet' }).count()) > 0;
  if (setting) {
    await page.getByLabel('PIN', { exact: true }).fill(pin);
    await page.getByLabel('Confirm PIN').fill(pin);
    await page.getByRole('button', { name: 'Save PIN' }).click();
  } else {
    await page.getByLabel('PIN', { exact: true }).fill(pin);
    await page.getByRole('button', { name: 'Unlock' }).click();
  }
  await page.locator('[data-app-ready]:not([data-device-lock])').first().waitFor({ timeout: 30_000 });
  return setting ? 'set-pin' : 'unlock';
}

/**
 * Closes every toast on `page` with its × (the outlet has closeButton, src/app/app-toaster.tsx) and
 * waits until none is left, for a test that then reads the layout or scans the page at rest.
 * Waiting for sonner to dismiss them took 4 s a toast, during which the browser lane's core stood
 * idle (issue #27.5). The buttons are clicked from inside the page: behind the front toast of a
 * stack they do not take a pointer, and which toast goes first is not the test's subject.
 */
export async function dismissToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const button of document.querySelectorAll<HTMLButtonElement>('[data-sonner-toast] [data-close-button]')) button.click();
  });
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
}

/**
 * Signs `email` in through the /login page of the server at `baseUrl` and waits until the app has
 * taken the token and the PIN is set or entered (harness signIn; offline-world's own servers too).
 */
export async function signInAt(page: Page, baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/login?from_url=${encodeURIComponent(`${baseUrl}/`)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The app exchanges the one-time ?code= for its token and removes it from the address bar.
  await page.waitForURL((url) => url.origin === baseUrl && !url.pathname.startsWith('/login') && !url.searchParams.has('code'), {
    timeout: 30_000,
  });
  await passDeviceLock(page);
  await rememberJsonSignIn(page, baseUrl, email, password);
}

/** Loads `path` of the app at `baseUrl` (a page load: the app starts) and enters the PIN (harness goto). */
export async function loadPath(page: Page, baseUrl: string, path: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await passDeviceLock(page);
}

/**
 * Opens `path` of the app at `baseUrl` as a tap on a link does (harness open): through the router,
 * without a page load, when `page` already shows that app unlocked; otherwise loads it and enters
 * the PIN. For the offline helpers too (offline-world.ts): a load costs about 1 CPU-s, and a test
 * whose subject is not the load need not pay it (issue #27.5).
 */
export async function openPath(page: Page, baseUrl: string, path: string): Promise<void> {
  const unlocked = new URL(page.url()).origin === baseUrl && (await page.locator('[data-app-ready]:not([data-device-lock])').count()) > 0;
  if (!unlocked) return loadPath(page, baseUrl, path);
  // TanStack Router wraps history.pushState: a push with its index and key is a navigation.
  await page.evaluate((to) => {
    const state = (history.state ?? {}) as { __TSR_index?: number };
    const key = Math.random().toString(36).slice(2);
    history.pushState({ __TSR_index: (state.__TSR_index ?? 0) + 1, __TSR_key: key, key }, '', to);
  }, path);
  const target = new URL(path, baseUrl);
  await page.waitForURL((u) => u.pathname === target.pathname && u.search === target.search);
}

/** The JSON API's token of the account each browser context signed in with (see signIn, api). */
const tokens = new WeakMap<BrowserContext, string>();

/**
 * A token of the account `page`'s context signed in with (harness signIn): the app itself keeps its
 * token in memory and sealed (issue #21), so the tests sign the same account in over the JSON API.
 */
export function tokenOf(page: Page): string {
  return tokens.get(page.context()) ?? '';
}

/** Signs `email` in over the JSON API and keeps its token for `page`'s context (tokenOf, api). */
export async function rememberJsonSignIn(page: Page, baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  const res = await fetch(`${baseUrl}/api/apps/passage/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.ok) tokens.set(page.context(), ((await res.json()) as { access_token: string }).access_token);
}

export const DEMO = {
  admin: 'admin@example.org',
  coach: 'coach@example.org',
  newcoach: 'newcoach@example.org',
  pending: 'pending@example.org',
  rejected: 'rejected@example.org',
} as const;

const ROOT = resolve(import.meta.dirname, '../..');

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

export interface Harness {
  /** e.g. http://127.0.0.1:41234 — the app and the API on one origin. */
  baseUrl: string;
  browser: Browser;
  /** The server's output so far (print it when a test fails mysteriously). */
  serverLog(): string;
  /**
   * When the server's demo data was seeded: its running cohort meets "today" as of then
   * (server/demo/builders.ts). A test that needs that day in the page pins the page's clock to it
   * (context.clock.install({ time })): a run that crosses midnight UTC seeds the template on one day
   * and runs the test on the next (issue #27.5).
   */
  demoSeededAt: Date;
  /**
   * A page in a fresh browser context (own IndexedDB, cookies, storage). Closed by stop(). `pin`
   * overrides the file's choice (setupHarness) for this context.
   */
  newPage(options?: BrowserContextOptions & { pin?: PinCost }): Promise<Page>;
  /** Signs in through the server's /login page and waits until the app has taken the token. */
  signIn(page: Page, email: string, password?: string): Promise<void>;
  /**
   * `email`'s signed-in page for this file, at `viewport` (default Playwright's 1280×720): the first
   * call opens a fresh context, runs `prepare` on its page (e.g. to watch its requests from the
   * start) and signs in; a later one resizes that page and opens the Dashboard as a tap does. For
   * tests that only need someone signed in: a sign-in costs about 3 CPU-s (docs/design.md, house
   * style). A test about the device itself (its lock, vault, network or clock) uses newPage.
   */
  session(email: string, options?: { viewport?: { width: number; height: number }; prepare?: (page: Page) => Promise<void> | void }): Promise<Page>;
  /** Loads an app path (a new page load: the app starts, the PIN is entered) and waits until the app rendered. */
  goto(page: Page, path: string): Promise<void>;
  /**
   * Opens an app path as a tap on a link does, through the router without a page load, when `page`
   * already shows the unlocked app of this server; otherwise as goto(). For tests that are not
   * about starting the app: a load costs the PIN's Argon2id (about 1 CPU-second by design) and the
   * app's start, and the browser tests are bound by CPU (issue #27.5).
   */
  open(page: Page, path: string): Promise<void>;
  /** Serious and critical axe-core violations on the page as it is now. */
  axe(page: Page): Promise<AxeViolation[]>;
  /** Page errors and console errors seen on this page since newPage(), each with its source URL. */
  errorsOf(page: Page): string[];
  /**
   * Calls the platform API from the page, as the user signIn() signed in (the app keeps its token in
   * memory and sealed, issue #21: the harness signs the same account in over the JSON API), e.g.
   * `await h().api(page, 'GET', '/apps/passage/entities/Participant?limit=1')` → { status, body }.
   */
  api(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

let axeScript: string | null = null;
function axeSource(): string {
  axeScript ??= readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  return axeScript;
}


/** Which store a browser test's server runs on: 'postgres' when the run has a cluster (the default), or 'pglite' always. */
export type HarnessStore = 'postgres' | 'pglite';

/**
 * The Passage server as a child process on a free port, with a fresh DATA_DIR and demo data
 * (startServerProcess), up once it answers: on another port and in another directory when the port
 * picked was taken before the server could listen on it. With `store: 'postgres'` and a cluster in
 * this run, its database is a copy of the seeded template (test/support/test-databases.ts);
 * otherwise it is PGlite in DATA_DIR, seeded at start, as `npm start` does.
 */
async function startServer(
  env: Record<string, string>,
  store: HarnessStore,
): Promise<{ child: ChildProcess; baseUrl: string; dataDir: string; log: () => string; dropDatabase: () => Promise<void>; seededAt: Date }> {
  for (let attempt = 1; ; attempt++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'passage-e2e-'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const database = store === 'postgres' ? await newTestDatabase('demo') : null;
    const dropDatabase = async () => database?.drop();
    // A copy of the template was seeded when the run began; PGlite is seeded as the server starts.
    const seededAt = database?.seededAt ?? new Date();
    try {
      const { child, output } = await startServerProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: E2E_DIST, DEMO: '1', NODE_ENV: 'production', ...(database ? { DATABASE_URL: database.url } : {}), ...env });
      // Any HTTP answer (403 auth_required here) means the server is up.
      const res = await fetch(`${baseUrl}/api/apps/public/prod/public-settings/by-id/passage`).catch(() => null);
      if (!res || res.status >= 500) {
        await stopChild(child);
        throw new Error(`The Passage server did not answer at start (${res?.status ?? 'no answer'}):\n${output()}`);
      }
      return { child, baseUrl, dataDir, log: output, dropDatabase, seededAt };
    } catch (err) {
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase();
      if (attempt < 3 && (err as Error).message.includes('EADDRINUSE')) continue;
      throw err;
    }
  }
}

/**
 * One Chromium per test worker, kept from file to file (browser-test files share their worker's
 * modules, vitest.config.ts): a launch costs about 1.5 CPU-seconds, and a file needs nothing of a
 * browser but its contexts, each a profile of its own (storage, cookies, service workers).
 * Playwright ends the browser with the worker; a browser that died is launched again.
 */
let launched: Promise<Browser> | null = null;
export async function workerBrowser(): Promise<Browser> {
  if (launched) {
    const browser = await launched.catch(() => null);
    if (browser?.isConnected()) return browser;
  }
  launched = chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return launched;
}

export interface HarnessOptions {
  /** More environment for the server (over the harness's). */
  env?: Record<string, string>;
  /** Default 'postgres' (when the run has a cluster); 'pglite' for the files that keep the default store covered end to end. */
  store?: HarnessStore;
  /** Default 'light' (lightPin); newPage({ pin: 'production' }) for a test whose subject is the derivation. */
  pin?: PinCost;
  /**
   * Default 'allow': the app's service worker installs and precaches the app shell (40 files) in
   * every context, as on a tablet. 'block' for a file whose tests never load a page without the
   * server: a sign-in then costs about 2.8 CPU-s instead of 3.6 (issue #27.5). newPage({
   * serviceWorkers }) overrides it for one context.
   */
  serviceWorkers?: 'allow' | 'block';
}

/** 'light': one Argon2id pass over 1 MiB (lightPin); 'production': the shipped 14 over 64 MiB, as on a tablet. */
export type PinCost = 'light' | 'production';

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  if (!existsSync(join(E2E_DIST, 'index.html'))) throw new Error('dist-e2e/ is missing: run `npx vite build --mode e2e` (npm test does it first).');
  const server = await startServer(options.env ?? {}, options.store ?? 'postgres');
  const { child, baseUrl, dataDir, log, dropDatabase, seededAt } = server;
  let browser: Browser;
  try {
    browser = await workerBrowser();
  } catch (err) {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
    throw err;
  }

  const contexts: BrowserContext[] = [];
  const errors = new WeakMap<Page, string[]>();
  const sessions = new Map<string, Page>();


  const harness: Harness = {
    baseUrl,
    browser,
    serverLog: log,
    demoSeededAt: seededAt,
    async newPage({ pin = options.pin ?? 'light', ...contextOptions } = {}) {
      const context = await browser.newContext({ ...CONTEXT_DEFAULTS, baseURL: baseUrl, serviceWorkers: options.serviceWorkers ?? 'allow', ...contextOptions });
      contexts.push(context);
      if (pin === 'light') await lightPin(context);
      const page = await context.newPage();
      const seen: string[] = [];
      errors.set(page, seen);
      page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') seen.push(`console: ${m.text()} (${m.location().url})`);
      });
      return page;
    },
    signIn: (page, email, password = DEMO_PASSWORD) => signInAt(page, baseUrl, email, password),
    async session(email, { viewport = { width: 1280, height: 720 }, prepare } = {}) {
      const open = sessions.get(email);
      if (open) {
        await open.setViewportSize(viewport);
        await harness.open(open, '/');
        return open;
      }
      const page = await harness.newPage({ viewport });
      await prepare?.(page);
      await harness.signIn(page, email);
      sessions.set(email, page);
      return page;
    },
    goto: (page, path) => loadPath(page, baseUrl, path),
    open: (page, path) => openPath(page, baseUrl, path),
    async axe(page) {
      // Evaluated over CDP rather than added as a <script>: the server's CSP (rightly) forbids
      // inline scripts, and the browser tests should run with the real CSP in force.
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
      // Finish entrance animations first: a card caught mid fade-in has a contrast it never shows
      // at rest. Endless ones (spinners, skeleton pulses) are skipped, they never finish.
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
            .map((a) => a.finished.catch(() => undefined)),
        ),
      );
      const found = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
      });
      return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    },
    errorsOf: (page) => errors.get(page) ?? [],
    api: (page, method, path, body) =>
      page.evaluate(
        async ({ method, path, body, token }) => {
          const res = await fetch(`/api${path}`, {
            method,
            headers: { 'Content-Type': 'application/json', 'X-App-Id': 'passage', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await res.text();
          return { status: res.status, body: text ? JSON.parse(text) : undefined };
        },
        { method, path, body, token: tokens.get(page.context()) ?? null },
      ),
    async stop() {
      // The contexts are this file's; the browser stays for the worker's next file.
      for (const c of contexts) await c.close().catch(() => undefined);
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase();
    },
  };
  return harness;
}

/** Starts one harness for the calling test file (beforeAll) and stops it (afterAll). */
export function setupHarness(options: HarnessOptions = {}): () => Harness {
  let current: Harness | null = null;
  beforeAll(async () => {
    current = await startHarness(options);
  });
  afterAll(async () => {
    await current?.stop();
    current = null;
  });
  return () => {
    if (!current) throw new Error('The harness is not running (use it inside a test, after beforeAll).');
    return current;
  };
}
