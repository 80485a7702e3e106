/**
 * In-page timing. An init script (runs before the app's own scripts on every navigation) starts a
 * requestAnimationFrame loop that checks named conditions once per frame and records the first
 * frame each holds, as performance.now() (ms since that navigation started). A rAF callback runs
 * just before the frame is painted, so a mark is "the first frame that shows it", not when the
 * Node side happened to poll. Marks for in-app actions are armed with `watchOnce` from the test.
 */
import type { Page } from 'playwright-core';

export interface MarkOptions {
  /** The Dashboard's 'Total Participants' figure once the whole data set is there. */
  expectedParticipants: number;
  /**
   * Count the sealed rows (issue #14: rows carrying `_enc`) the page writes to and reads from
   * IndexedDB, per object store, in `window.__benchSealed` (the first sync's encryption share).
   * Off unless asked: the counting wraps IndexedDB's request methods.
   */
  countSealed?: boolean;
}

/** Sealed rows (with `_enc`) the page put into / read out of IndexedDB, per object store. */
export interface SealedCounts {
  written: Record<string, number>;
  read: Record<string, number>;
}

declare global {
  interface Window {
    __bench: {
      marks: Record<string, number>;
      watch(name: string, test: () => boolean): void;
      /** Dashboard stat value next to a label, or null while it shows skeletons. */
      statValue(label: string): string | null;
    };
    __benchSealed?: SealedCounts & { on: boolean };
  }
}

/** Installed with context.addInitScript; must be self-contained (it is serialized to the page). */
export function installMarks(opts: MarkOptions): void {
  // The default 250 entries would drop requests of a long sync; the bench reads them afterwards.
  performance.setResourceTimingBufferSize(20_000);
  const marks: Record<string, number> = {};
  const watchers: { name: string; test: () => boolean }[] = [];
  const statValue = (label: string): string | null => {
    for (const p of Array.from(document.querySelectorAll('p'))) {
      if (p.textContent === label) return p.nextElementSibling?.textContent ?? null;
    }
    return null;
  };
  const bench = {
    marks,
    statValue,
    watch(name: string, test: () => boolean) {
      delete marks[name];
      watchers.push({ name, test });
    },
  };
  (window as unknown as { __bench: typeof bench }).__bench = bench;
  const onDashboard = () => location.pathname === '/' || location.pathname.toLowerCase() === '/dashboard';
  // The app itself, not a device-lock screen (those carry data-app-ready too: issue #14).
  bench.watch('app-ready', () => document.querySelector('[data-app-ready]:not([data-device-lock])') !== null);
  // Issue #14's screens, usable: the heading and the PIN field are on screen. 'lock-submit' is the
  // latest click on a lock screen's submit button (Save PIN, Unlock), as event.timeStamp.
  const lockScreen = (title: string) => () =>
    Array.from(document.querySelectorAll('[data-device-lock] h1')).some((h) => h.textContent === title) &&
    document.querySelector('[data-device-lock] input') !== null;
  bench.watch('pin-screen', lockScreen('Set a PIN for this tablet'));
  bench.watch('unlock-screen', lockScreen('Passage is locked'));
  document.addEventListener(
    'click',
    (e) => {
      const button = (e.target as Element | null)?.closest?.('button[type="submit"]');
      if (button && button.closest('[data-device-lock]')) marks['lock-submit'] = e.timeStamp;
    },
    { capture: true },
  );
  if (opts.countSealed) {
    const sealed = { on: true, written: {} as Record<string, number>, read: {} as Record<string, number> };
    (window as unknown as { __benchSealed: typeof sealed }).__benchSealed = sealed;
    const isSealed = (v: unknown) => !!v && typeof v === 'object' && '_enc' in (v as object);
    const add = (into: Record<string, number>, store: string, n: number) => {
      if (n) into[store] = (into[store] ?? 0) + n;
    };
    const storeOf = (source: IDBObjectStore | IDBIndex) => ('objectStore' in source ? source.objectStore.name : source.name);
    const wrapRead = (proto: IDBObjectStore | IDBIndex, method: 'get' | 'getAll' | 'openCursor') => {
      const original = (proto as unknown as Record<string, (...a: unknown[]) => IDBRequest>)[method];
      (proto as unknown as Record<string, unknown>)[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
        const request = original.apply(this, args);
        if (sealed.on) {
          const store = storeOf(this);
          request.addEventListener('success', () => {
            const r = request.result as unknown;
            if (method === 'getAll') add(sealed.read, store, (r as unknown[]).filter(isSealed).length);
            else if (method === 'get') add(sealed.read, store, isSealed(r) ? 1 : 0);
            else if (r && 'value' in (r as IDBCursorWithValue)) add(sealed.read, store, isSealed((r as IDBCursorWithValue).value) ? 1 : 0);
          });
        }
        return request;
      };
    };
    for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype]) for (const m of ['get', 'getAll', 'openCursor'] as const) wrapRead(proto, m);
    for (const method of ['put', 'add'] as const) {
      const original = IDBObjectStore.prototype[method];
      IDBObjectStore.prototype[method] = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        if (sealed.on && isSealed(value)) add(sealed.written, this.name, 1);
        return key === undefined ? original.call(this, value) : original.call(this, value, key);
      };
    }
  }
  bench.watch('dashboard-heading', () => onDashboard() && Array.from(document.querySelectorAll('h1')).some((h) => h.textContent === 'Dashboard'));
  bench.watch('dashboard-figures', () => onDashboard() && statValue('Total Participants') === String(opts.expectedParticipants));
  bench.watch(
    'dashboard-synced',
    () => onDashboard() && statValue('Total Participants') === String(opts.expectedParticipants) && document.querySelector('[data-sync-state="up-to-date"]') !== null,
  );
  const check = () => {
    const now = performance.now();
    for (let i = watchers.length - 1; i >= 0; i--) {
      let held = false;
      try {
        held = watchers[i].test();
      } catch {
        held = false;
      }
      if (held) {
        marks[watchers[i].name] = now;
        watchers.splice(i, 1);
      }
    }
  };
  const frame = () => {
    check();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // Also right after each DOM change (a MutationObserver runs once React's commit ends, before its
  // effects). Checked only each frame, a screen's mark could come after what the app starts once
  // that screen is shown: the screens' chunk prefetch (src/main.tsx) then counted as "JavaScript
  // before the first page", 308 KB in 77 files in one run instead of 131.5 KB in 1.
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

/** Waits for a mark (or throws after timeoutMs) and returns it. */
export async function waitForMark(page: Page, name: string, timeoutMs = 120_000): Promise<number> {
  const handle = await page.waitForFunction((n) => window.__bench?.marks[n], name, { timeout: timeoutMs, polling: 50 });
  return (await handle.jsonValue()) as number;
}

export function marks(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => ({ ...window.__bench.marks }));
}

/** The sealed-row counts so far (MarkOptions.countSealed), and stop counting. */
export function takeSealedCounts(page: Page): Promise<SealedCounts | null> {
  return page.evaluate(() => {
    const s = window.__benchSealed;
    if (!s) return null;
    s.on = false;
    return { written: { ...s.written }, read: { ...s.read } };
  });
}
