/**
 * Helpers of the offline browser tests (offline*.test.ts, pwa*.test.ts): ground truth from the
 * server (read with Node's fetch, so it works while the browser is offline), the outbox as the
 * page's IndexedDB holds it, and waiting for the service worker.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort, startServerProcess, stopChild } from '../support/processes';
import { newTestDatabase } from '../support/test-databases';
import { dismissToasts, openPath, passDeviceLock, tokenOf as harnessToken } from './harness';

export type Row = Record<string, unknown> & { id: string };

export async function tokenOf(page: Page): Promise<string> {
  return harnessToken(page);
}

/** What the server holds (not the mirror): the platform API called from Node with this token. */
export async function serverRows(baseUrl: string, token: string, entity: string, q: Record<string, unknown> = {}, limit = 500): Promise<Row[]> {
  const res = await fetch(`${baseUrl}/api/apps/passage/entities/${entity}?q=${encodeURIComponent(JSON.stringify(q))}&limit=${limit}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-App-Id': 'passage' },
  });
  if (res.status !== 200) throw new Error(`GET ${entity} → ${res.status} ${await res.text()}`);
  return (await res.json()) as Row[];
}

/**
 * Issue #22: what the demo coach's tablet holds — the cohorts of the sites where they lead or
 * support a cohort, and the participants enrolled in those cohorts (as the server has them).
 */
export async function coachScope(baseUrl: string, token: string, email = 'coach@example.org'): Promise<{ siteIds: Set<string>; cohorts: Row[]; participants: Row[] }> {
  const own = await serverRows(baseUrl, token, 'Cohort', { $or: [{ lead_coach_email: email }, { support_coach_emails: email }] });
  const siteIds = new Set(own.map((c) => String(c.site_id)));
  const cohorts = await serverRows(baseUrl, token, 'Cohort', { site_id: { $in: [...siteIds] } });
  const enrollments = await serverRows(baseUrl, token, 'Enrollment', { cohort_id: { $in: cohorts.map((c) => c.id) } }, 5000);
  const ids = [...new Set(enrollments.map((e) => String(e.participant_id)))];
  const participants = ids.length ? await serverRows(baseUrl, token, 'Participant', { id: { $in: ids } }, 5000) : [];
  return { siteIds, cohorts, participants };
}

/** The participants the demo coach's tablet holds (issue #22), in the server's order. */
export async function coachParticipants(baseUrl: string, token: string): Promise<Row[]> {
  return (await coachScope(baseUrl, token)).participants;
}

export async function serverUpdate(baseUrl: string, token: string, entity: string, id: string, data: Record<string, unknown>): Promise<Row> {
  const res = await fetch(`${baseUrl}/api/apps/passage/entities/${entity}/${id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'X-App-Id': 'passage', 'Content-Type': 'application/json' },
    body: JSON.stringify(data),
  });
  if (res.status !== 200) throw new Error(`PUT ${entity}/${id} → ${res.status} ${await res.text()}`);
  return (await res.json()) as Row;
}

/**
 * Reads one object store of the app's database with plain IndexedDB: every row, or the row with
 * `key`. Never creates the database (an empty one would be in Dexie's way): before the app made
 * it, the answer is [] / undefined.
 */
async function readStore(page: Page, store: string, key?: string): Promise<unknown> {
  return page.evaluate(
    ({ store, key }) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('passage');
        open.onerror = () => reject(open.error);
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(store)) {
            db.close();
            resolve(key === undefined ? [] : undefined);
            return;
          }
          const os = db.transaction(store).objectStore(store);
          const req = key === undefined ? os.getAll() : os.get(key);
          req.onsuccess = () => {
            db.close();
            resolve(req.result);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    { store, key },
  );
}

export interface QueuedOp {
  entity: string;
  kind: string;
  state: string;
  record_id: string;
  data: Record<string, unknown>;
}

/** Ops in the page's outbox (the Dexie table). */
export async function outbox(page: Page): Promise<QueuedOp[]> {
  return (await readStore(page, 'outbox').catch(() => [])) as QueuedOp[];
}

/**
 * Waits until the service worker controls the page (it claims it on first install). A page whose
 * navigation began while the worker was still installing can end up uncontrolled for good: its
 * clients.claim() ran before that page existed (seen once in a whole run: "active: activated",
 * no controller after 30 s). Chromium then controls it from its next load, as a coach's next
 * start would be, so once the worker has been activated for 5 s without controlling the page, this
 * reloads it (and enters the PIN), once. Fails after `timeoutMs` with the worker's state instead of
 * hanging: an install fails when a precached file is gone (e.g. dist-e2e/ rebuilt while the server
 * runs).
 */
export async function serviceWorkerReady(page: Page, timeoutMs = 30_000): Promise<void> {
  let outcome = await controlled(page, timeoutMs);
  if (outcome === UNCLAIMED) {
    await page.reload();
    await passDeviceLock(page);
    outcome = await controlled(page, timeoutMs);
  }
  if (outcome !== 'ok') throw new Error(outcome);
}

const UNCLAIMED = 'activated for 5 s, not controlling this page';

/** 'ok' once a worker controls the page, UNCLAIMED, or after `timeoutMs` what the registration shows. */
function controlled(page: Page, timeoutMs: number): Promise<string> {
  return page.evaluate(
    async ({ timeoutMs, unclaimed }) => {
      const start = Date.now();
      let activatedSince: number | null = null;
      for (;;) {
        if (navigator.serviceWorker.controller) return 'ok';
        const reg = await navigator.serviceWorker.getRegistration();
        const settled = reg?.active?.state === 'activated' && !reg.installing && !reg.waiting;
        activatedSince = settled ? (activatedSince ?? Date.now()) : null;
        if (activatedSince !== null && Date.now() - activatedSince >= 5_000) return unclaimed;
        if (Date.now() - start >= timeoutMs) {
          return `no controlling service worker after ${timeoutMs} ms (installing: ${reg?.installing?.state ?? '-'}, waiting: ${reg?.waiting?.state ?? '-'}, active: ${reg?.active?.state ?? '-'})`;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    { timeoutMs, unclaimed: UNCLAIMED },
  );
}

export function eventually<T>(read: () => Promise<T>, timeout = 20_000) {
  return expect.poll(read, { timeout, interval: 250 });
}

export async function toast(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });
}

export function fullName(p: Row): string {
  return `${String(p.first_name)} ${String(p.last_name)}`;
}

/**
 * A Passage server of the test's own (the harness's cannot be stopped and started again): run from
 * `dir` (it serves `dir/dist`, keeps its database in `dir/data`), on a fixed port so it can die
 * and come back at the same address, as a real server restart does.
 */
export interface OwnServer {
  baseUrl: string;
  dir: string;
  log(): string;
  /** SIGKILL: no graceful shutdown, requests in flight are cut. */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function ownServer(): Promise<OwnServer> {
  const { cpSync, mkdtempSync, rmSync, symlinkSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join, resolve } = await import('node:path');
  const root = resolve(import.meta.dirname, '../..');
  const dir = mkdtempSync(join(tmpdir(), 'passage-own-'));
  // The browser tests' build (test/e2e/harness.ts E2E_DIST), deployed as this server's dist/.
  cpSync(join(root, 'dist-e2e'), join(dir, 'dist'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  /** The output of every start so far, the current one last. */
  const outputs: Array<() => string> = [];
  let child: import('node:child_process').ChildProcess | null = null;
  // On the run's PostgreSQL when it has one (test/support/test-databases.ts); one database for every start.
  const database = await newTestDatabase('demo');

  const server: OwnServer = {
    baseUrl,
    dir,
    log: () => outputs.map((output) => output()).join(''),
    async start() {
      const started = await startServerProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dir, 'data'), DEMO: '1', NODE_ENV: 'production', ...(database ? { DATABASE_URL: database.url } : {}) }, { cwd: dir });
      child = started.child;
      outputs.push(started.output);
    },
    async kill() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const c = child;
      const exited = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child) await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    },
  };
  await server.start();
  return server;
}

/** Signs in through an own server's /login page, as the harness's signIn does. */
export { signInAt } from './harness';

/** The leader's status row (data/sync/status-store.ts) as the page's IndexedDB holds it. */
export async function syncStatusRow(page: Page): Promise<{ lastSyncedAt: number | null; online: boolean; leader: boolean } | null> {
  const row = (await readStore(page, 'meta', 'syncStatus').catch(() => undefined)) as { value?: never } | undefined;
  return row?.value ?? null;
}

/**
 * Adds a participant through the AddParticipant form (works offline: it only writes Dexie). The
 * form opens as a tap opens it when the app is already shown unlocked, else with a page load
 * (harness openPath); a toast left from before is closed first, so the one awaited is this save's.
 */
export async function addParticipant(page: Page, baseUrl: string, first: string, last: string): Promise<void> {
  await openPath(page, baseUrl, '/addparticipant');
  await dismissToasts(page);
  await page.getByLabel('First Name *', { exact: true }).fill(first);
  await page.getByLabel('Last Name *', { exact: true }).fill(last);
  await page.getByRole('button', { name: 'Add Participant' }).click();
  await toast(page, 'Participant added successfully!');
  await page.waitForURL((url) => url.pathname === '/participants');
}

/** A token for `email`, from the platform's login endpoint (an admin working online elsewhere). */
export async function loginToken(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/apps/passage/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-App-Id': 'passage' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email} → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Edits one field of a participant through ParticipantDetail's Edit Profile form (opened as addParticipant opens its form). */
export async function editParticipantField(page: Page, baseUrl: string, id: string, label: string, value: string): Promise<void> {
  await openPath(page, baseUrl, `/participantdetail?id=${encodeURIComponent(id)}`);
  await dismissToasts(page);
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByRole('form', { name: 'Edit participant' }).getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await toast(page, 'Participant updated successfully!');
}
