/**
 * The bench's "1,000 queued ops pushed after reconnect" row on its own, in a minute instead of 13:
 * a smaller data set, sign-in and first sync, close, cold start OFFLINE, queue N creates through
 * the app's command code, reconnect, wait until the outbox is empty (or PUSH_LIMIT_MS).
 *
 *   npx tsx test/bench/push-repro.ts [ops=1000] [runs=1]
 *
 * REPRO_PARTICIPANTS=<n> (default 1000) sizes the data set (the other tables scale with it);
 * REPRO_LOG=1 prints the page's console and its API requests; REPRO_WAIT_S=<s> stays offline that long
 * after queueing (the engine's offline backoff grows as while 1,000 ops are queued); REPRO_ANNOUNCE=1 makes the page see itself offline (navigator.onLine false),
 * which Chromium's emulation does not do for a page opened offline (then no 'online' event comes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_APP_ID } from '../../shared/config';
import { DEMO_PASSWORD } from '../../server/demo/accounts';
import { signInApi } from './app/api-client';
import { firstPage, openProfile, serviceWorkerControls, withTimeout } from './app/browser';
import { SIZES } from './app/dataset';
import { ensureDist } from './app/dist-check';
import { buildHooksScript } from './app/inject-bundle';
import { coldStartOffline, queueAndPush } from './app/measure-offline';
import { waitForMark } from './app/page-marks';
import { signIn } from './app/browser';
import { setPinOnScreen } from './app/device-lock';
import { seedBenchData } from './app/seed';
import { startServer } from './app/server-process';

const ROOT = resolve(import.meta.dirname, '../..');
const APP = DEFAULT_APP_ID;
// The bench's push row runs on the administrator's tablet, which holds every site (issue #22: the
// coach's holds their 3 sites, and the Dashboard mark below waits for every participant).
const USER = 'admin@example.org';
const ops = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 1);
const participants = Number(process.env.REPRO_PARTICIPANTS ?? 1000);

// The builders read SIZES: scale the data set down (same ratios as the bench's).
const scale = participants / SIZES.Participant;
const sizes = SIZES as unknown as Record<string, number>;
for (const k of Object.keys(sizes)) sizes[k] = Math.max(k === 'Program' ? 5 : 10, Math.round(sizes[k] * scale));
sizes.Session = sizes.Cohort * 5;
sizes.Enrollment = sizes.Participant * 3;
sizes.Outcome = sizes.Participant * 2;

const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);

const work = mkdtempSync(join(tmpdir(), 'passage-push-repro-'));
const dist = ensureDist(ROOT);
const seeded = await seedBenchData(join(work, 'data'), APP);
log(`seeded ${JSON.stringify(seeded.counts)}`);
const server = await startServer(dist.serveRoot, join(work, 'data'), APP);
log(`server at ${server.baseUrl}`);
try {
  const userApi = await signInApi(server.baseUrl, APP, USER, DEMO_PASSWORD);
  const user = await userApi.get<{ id: string }>(`/apps/${APP}/entities/User/me`);
  const hooks = await buildHooksScript(ROOT);
  const count = async () => (await userApi.get<{ count: number }>(`/apps/${APP}/entities/Participant/count`)).count;

  const results: unknown[] = [];
  for (let run = 1; run <= runs; run++) {
    const profileDir = join(work, `profile-${run}`);
    const expected = await count();
    const marks = { expectedParticipants: expected };
    let context = await openProfile(profileDir, marks);
    const page = await firstPage(context);
    await signIn(page, server.baseUrl, USER, DEMO_PASSWORD);
    // Issue #14: the first sign-in on a device asks for a PIN; the sync starts once it is saved.
    await setPinOnScreen(page);
    await waitForMark(page, 'dashboard-synced', 120_000);
    await withTimeout(serviceWorkerControls(page), 60_000, 'service worker');
    log(`run ${run}: signed in and synced (${expected} participants)`);
    await context.close();

    const cold = await coldStartOffline(profileDir, server.baseUrl, marks);
    context = cold.context;
    const consoleLines: string[] = [];
    const stamp = () => ((performance.now() - t0) / 1000).toFixed(2);
    cold.page.on('console', (m) => consoleLines.push(`${stamp()} ${m.type()}: ${m.text()}`));
    cold.page.on('pageerror', (e) => consoleLines.push(`${stamp()} pageerror: ${e.message}`));
    cold.page.on('requestfailed', (r) => consoleLines.push(`${stamp()} requestfailed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
    cold.page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) consoleLines.push(`${stamp()} request: ${r.method()} ${u.pathname}${u.search.slice(0, 60)}`);
    });
    const probe = () =>
      cold.page.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((res, rej) => {
          const r = indexedDB.open('passage');
          r.onsuccess = () => res(r.result);
          r.onerror = () => rej(r.error);
        });
        const status = await new Promise<unknown>((res) => {
          try {
            const q = db.transaction('meta').objectStore('meta').get('syncStatus');
            q.onsuccess = () => res(q.result?.value ?? null);
            q.onerror = () => res(null);
          } catch (e) {
            res(String(e));
          }
        });
        db.close();
        return { onLine: navigator.onLine, path: location.pathname, status };
      });
    if (process.env.REPRO_ANNOUNCE) {
      // What a real device does and this Chromium does not after a launch offline (see the report):
      // the page is told it is offline, so the reconnect fires 'online'.
      const cdp = await context.newCDPSession(cold.page);
      await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    }
    let firstAnswer = 0;
    cold.page.on('response', (r) => {
      if (!firstAnswer && new URL(r.url()).pathname.startsWith('/api/')) firstAnswer = performance.now();
    });
    log(`  after cold start: ${JSON.stringify(await probe())}`);
    cold.page.context().on('close', () => undefined);
    (globalThis as { __probe?: typeof probe }).__probe = probe;
    log(`run ${run}: cold start offline, Dashboard figures at ${Math.round(cold.interactiveMs)} ms`);
    const before = await count();
    const p = await queueAndPush(cold.page, server.baseUrl, hooks, user.id, ops, `repro${run}`, Number(process.env.REPRO_WAIT_S ?? 0) * 1000);
    const ended = performance.now();
    const arrived = (await count()) - before;
    log(
      `run ${run}: ${p.queued} queued in ${(p.queueMs / 1000).toFixed(1)} s; ${p.finished ? 'pushed' : 'NOT pushed'} in ${(p.pushMs / 1000).toFixed(2)} s, ` +
        `${p.pushRequests} API requests, ${p.left} left ${JSON.stringify(p.leftStates)}, arrived ${arrived}; ` +
        `first API answer ${firstAnswer ? `${((ended - firstAnswer) / 1000).toFixed(2)} s before the end` : 'never'}`,
    );
    if (!p.finished) log(`  errors ${JSON.stringify(p.leftErrors)}\n  status ${JSON.stringify(p.status)}`);
    const engine = await cold.page.evaluate(() => ({ onLine: navigator.onLine, sw: !!navigator.serviceWorker.controller }));
    log(`  page: ${JSON.stringify(engine)}`);
    if (process.env.REPRO_LOG || !p.finished) console.log(consoleLines.slice(-60).map((l) => l.slice(0, 200)).join('\n'));
    results.push({ run, pushS: +(p.pushMs / 1000).toFixed(2), finished: p.finished, arrived });
    await context.close();
  }
  console.log(JSON.stringify(results));
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
