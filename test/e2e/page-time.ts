/**
 * Page time for the browser tests: Playwright's clock (Date, setTimeout, setInterval, performance,
 * requestAnimationFrame of every page of a context) driven by the test, so a test that waits for an
 * app timer (the engine's probe, backoff and debounce, the idle lock) neither sleeps in real time
 * nor depends on how busy the machine is.
 *
 *   const time = await pageTime(context);     // before the app loads: installs the clock, watches work
 *   …sign in, work as usual (page time runs with real time)…
 *   await time.pause();                        // from now on page time moves only when the test says
 *   await time.pass(30_000);                   // 30 s of page time, the app doing its work as it goes
 *   const ms = await time.until(onServer);     // page time it took, counting only waiting, not work
 *
 * The app is "at work" while a request of the context is in flight, an IndexedDB transaction is
 * open or a WebCrypto call has not answered: page time then stands still however long the work
 * takes in real time. Between those it moves in small steps, so what is measured is the time the
 * app waited on its own timers: the same on an idle laptop and on a 2-core box under a load of 14.
 * watchWork alone (no clock) tells a test when the page has finished what it was doing, e.g.
 * before an accessibility scan, instead of a fixed sleep.
 */
import type { BrowserContext, Page, Request } from 'playwright-core';

/** Counts the page's open IndexedDB transactions and pending WebCrypto calls (an init script). */
function countWork(): void {
  const w = window as unknown as { __passageWork?: () => number };
  if (w.__passageWork) return;
  let open = 0;
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    const tx = transaction.apply(this, args);
    open++;
    let done = false;
    const end = () => {
      if (!done) open--;
      done = true;
    };
    tx.addEventListener('complete', end);
    tx.addEventListener('abort', end);
    return tx;
  } as IDBDatabase['transaction'];
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    const proto = Object.getPrototypeOf(subtle) as Record<string, unknown>;
    for (const name of ['encrypt', 'decrypt', 'sign', 'verify', 'digest', 'generateKey', 'deriveKey', 'deriveBits', 'importKey', 'exportKey', 'wrapKey', 'unwrapKey']) {
      const original = proto[name];
      if (typeof original !== 'function') continue;
      proto[name] = function (this: SubtleCrypto, ...args: unknown[]) {
        open++;
        const out = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
        const end = () => void open--;
        out.then(end, end);
        return out;
      };
    }
  }
  w.__passageWork = () => open;
}

export interface PageWork {
  /** Waits (real time) until no request is in flight and no transaction or crypto call is open. */
  settle(): Promise<void>;
  /** Requests of the context in flight now (method and URL), for a failure message. */
  inFlight(): string[];
}

export interface PageTime extends PageWork {
  /** Stops page time (at the page's present time): from now on only pass/until move it. */
  pause(): Promise<void>;
  /** Lets page time run with real time again. */
  resume(): Promise<void>;
  /** Lets `ms` of page time pass in steps of `stepMs`, each after the app's work of the last is done. */
  pass(ms: number, stepMs?: number): Promise<void>;
  /**
   * Moves page time in steps of `stepMs` (each after the app's work is done) until `done()` holds;
   * returns the page time that passed, or Infinity when `limitMs` passed first.
   */
  until(done: () => Promise<boolean>, options?: { stepMs?: number; limitMs?: number }): Promise<number>;
}

const CHANGE_STREAM = /^\/api\/apps\/[^/]+\/events$/;

/**
 * Watches the work of `context` (its requests, and the IndexedDB transactions and WebCrypto calls
 * of `page`, by default its first page): call before the page loads the app (an init script).
 */
export async function watchWork(context: BrowserContext, page?: Page): Promise<PageWork> {
  await context.addInitScript(countWork);
  const flying = new Set<Request>();
  let started = 0;
  context.on('request', (r) => {
    // The change stream (S18) stays open while the page is online: its opening is work, its
    // staying open is not (else no online page would ever settle).
    if (!CHANGE_STREAM.test(new URL(r.url()).pathname)) flying.add(r);
    started++;
  });
  context.on('requestfinished', (r) => flying.delete(r));
  context.on('requestfailed', (r) => flying.delete(r));
  const target = () => page ?? context.pages()[0];
  const openWork = () => target().evaluate(() => (window as unknown as { __passageWork?: () => number }).__passageWork?.() ?? 0).catch(() => 0);
  const inFlight = () => [...flying].map((r) => `${r.method()} ${r.url()}`);

  async function settle(): Promise<void> {
    const deadline = Date.now() + 60_000;
    // Quiet twice in a row, with no request started in between: the work a timer or an event set
    // off has either finished or shows (a request, a transaction) by the second look.
    let quiet = 0;
    while (quiet < 2) {
      if (Date.now() > deadline) throw new Error(`the page never settled: in flight ${inFlight().join(', ') || '-'}, open work ${await openWork()}`);
      const before = started;
      const busy = flying.size > 0 || (await openWork()) > 0;
      await new Promise((r) => setTimeout(r, busy ? 20 : 10));
      quiet = !busy && started === before && flying.size === 0 ? quiet + 1 : 0;
    }
  }
  return { settle, inFlight };
}

/**
 * Installs the clock on `context` and watches its work (watchWork). Call before the page loads the
 * app (the clock and the work counter are init scripts). Page time runs with real time until pause().
 */
export async function pageTime(context: BrowserContext, page?: Page): Promise<PageTime> {
  const work = await watchWork(context, page);
  await context.clock.install();
  const target = () => page ?? context.pages()[0];
  const { settle } = work;

  return {
    ...work,
    async pause() {
      const now = await target().evaluate(() => Date.now());
      // A moment ahead of the page's present: pausing cannot go back in time.
      await context.clock.pauseAt(now + 500);
    },
    resume: () => context.clock.resume(),
    async pass(ms, stepMs = 1000) {
      for (let passed = 0; passed < ms; passed += stepMs) {
        await settle();
        await context.clock.runFor(Math.min(stepMs, ms - passed));
      }
      await settle();
    },
    async until(done, { stepMs = 100, limitMs = 60_000 } = {}) {
      for (let passed = 0; ; passed += stepMs) {
        await settle();
        if (await done()) return passed;
        if (passed >= limitMs) return Infinity;
        await context.clock.runFor(stepMs);
      }
    },
  };
}
