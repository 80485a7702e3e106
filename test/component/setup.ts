import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { configure, getConfig } from '@testing-library/react';

// Live queries resolve through IndexedDB (fake-indexeddb) asynchronously. Beside the browser tests
// on 2 cores a component file runs 5-11x slower than alone: a toast that shows in 1 s alone took
// 5.7 s in one fresh-clone run. So findBy*/waitFor wait up to 15 s (a wait, not a goal).
configure({ asyncUtilTimeout: 15_000 });

// jsdom has no layout, so no scrolling: the router's scroll restoration would log
// "Not implemented: Window's scrollTo()" on every navigation.
window.scrollTo = (() => undefined) as typeof window.scrollTo;

// Each test starts with a cold in-memory list cache (src/data/queries/remembered.ts), as a newly
// opened tab would: a previous test's participants must not stand in for this test's loading state.
import { beforeEach } from 'vitest';
import { forgetRememberedQueries } from '../../src/data/queries/remembered';
import { forgetListSearches } from '../../src/shell-api/list-memory';
import { toast } from 'sonner';
// Search text lives in memory (issue #21.6): each test starts with none. No toast is still
// showing either: sonner keeps its toasts in module state, and a Toaster replays the ones not
// dismissed when it mounts. A toast left by the test before (its Toaster unmounted by cleanup, so
// its timer never ran out) came back into the next test's page: add-participant's "a full device
// says so" then found that earlier "Failed to add participant" toast, which left the page before
// the assertion (two fresh-clone runs).
beforeEach(() => {
  forgetRememberedQueries();
  forgetListSearches();
  toast.dismiss();
});

// The app's database starts locked (issue #14): screens are tested on it unlocked, with a random
// data key, so every row they write and read goes through the sealing middleware.
import { db as appDb } from '../../src/data/db';
import { newDataKey } from '../../src/data/vault/keys';
// A test that logs out or wipes the device drops the key; the next one gets a new one.
beforeEach(() => {
  if (!appDb.keys.unlocked) appDb.keys.set(newDataKey());
});

// Each file starts as a newly opened browser profile would, because component files share their
// worker's jsdom and modules (isolate: false in vitest.config.ts: ~60 CPU-s instead of ~200;
// issue #27.5): no toast still showing, nothing remembered by the modules a previous file ran, no
// stored items, real timers, the window's size as jsdom makes it, and an IndexedDB of its own.
// The last matters most. With one IndexedDB shared by all files, use-command.test.tsx's offline
// write hung in two fresh-clone runs: a previous file can leave a connection open while a delete
// of the same database waits for it, and fake-indexeddb then queues every later open of that name
// behind the delete for ever. A new IDBFactory per file (as isolated files had) has no such queue.
import { afterAll, beforeAll, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import Dexie from 'dexie';
import { IDBFactory } from 'fake-indexeddb';
import { forgetGridGeometry } from '../../src/screens/participants/use-scroll-parent';
import { forgetAcademyCounts } from '../../src/data/online/academy-counts';
import { storeToken } from '../../src/platform/token-store';

/** Every Dexie made from here on, and the app's own `db` (made once per worker), open in `factory`. */
function useIndexedDb(factory: IDBFactory): void {
  globalThis.indexedDB = factory;
  Dexie.dependencies.indexedDB = factory;
  appDb.close({ disableAutoOpen: false });
  // Dexie keeps the factory it was made with; the app's db is made once per worker.
  (appDb as unknown as { _deps: { indexedDB: IDBFactory } })._deps.indexedDB = factory;
}
const windowSize = { innerWidth: window.innerWidth, innerHeight: window.innerHeight };
beforeAll(() => {
  useIndexedDb(new IDBFactory());
  forgetGridGeometry();
  forgetAcademyCounts();
  storeToken(null);
  localStorage.clear();
  sessionStorage.clear();
  for (const [key, value] of Object.entries(windowSize)) Object.defineProperty(window, key, { configurable: true, writable: true, value });
});
afterAll(() => {
  cleanup();
  vi.useRealTimers();
});

// Two costs of jsdom that no assertion here needs (issue #27.5). take-attendance, add-cohort and
// sessions, alone, two rounds each way: 9.8-9.9 s of tests instead of 13.0-13.9.
// - sonner's stylesheet, which it adds to the document when it is imported: jsdom matches all 97
//   of its rules against an element in every getComputedStyle, and testing-library's *ByRole
//   queries ask for the style of every element they look at (names, hidden or not). A
//   profiled run of "a roster of 30" spent 1.6 of its 6.2 CPU-s there. jsdom has no layout and
//   the app's own stylesheet is not loaded either: what the CSS shows is the browser tests' subject.
// - the DOM printed into each miss while findBy*/waitFor keep looking (1.0 CPU-s of the 6.2).
//   testing-library marks those checks (`_disableExpensiveErrorDiagnostics`); a wait that runs out
//   still prints the DOM once, as it ends (waitFor's onTimeout), and a getBy* outside a wait too.
for (const style of document.querySelectorAll('style')) if (style.textContent?.includes('[data-sonner-toaster]')) style.remove();
const fullElementError = getConfig().getElementError;
configure({
  getElementError: (message, container) => {
    if (!(getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics) return fullElementError(message, container);
    const error = new Error(message ?? '');
    error.name = 'TestingLibraryElementError';
    return error;
  },
});
