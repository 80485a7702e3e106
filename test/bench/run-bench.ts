/**
 * `npm run bench` (issue #6): seeds a server with 10,000 participants, 30,000 enrollments, 1,000
 * cohorts, 50 programs, 200 sites, 5,000 sessions and 20,000 outcomes, drives headless Chromium
 * through sign-in, the Participants page, search, offline start, a 1,000-op push and an
 * incremental pull, runs the online-only baseline on loopback and at 150 ms per request, and
 * writes bench/results.json plus a Markdown table. A step that fails is reported "n/a: <why>".
 *
 * Issue #22: a tablet holds its user's sites. The bench's coach works at 3 of the 200 sites
 * (app/dataset.ts), so the rows that measure the whole academy on a tablet (initial sync, the
 * Participants page, search, unlock, cold start, push, the facility link's first sync) run as the
 * administrator, whose tablet holds every site; the coach's own first sync, the participants their
 * tablet holds, the scope grown by one site and the administrator's first sync to Participants are
 * the scope rows (app/measure-scope.ts), each on a fresh profile, before the others.
 *
 * BENCH_SEED_CACHE=<dir>: seed once into <dir> and copy it on later runs (for working on the bench).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { searchKey } from '../../src/domain/participant-search';
import { DEFAULT_APP_ID } from '../../shared/config';
import type { Participant } from '../../shared/entities';
import { DEMO_PASSWORD } from '../../server/demo/accounts';
import { listAll, signInApi } from './app/api-client';
import { runBaseline, type BaselineResult } from './app/baseline';
import { firstPage, launchPlain, openProfile, serviceWorkerControls, setCpuRate, withTimeout } from './app/browser';
import { startDelayProxy, startLinkProxy } from './app/delay-proxy';
import { BASELINE_CAP_MS, describeLink, FACILITY_LINK } from './app/facility-link';
import { measureFacilitySync, measureFirstVisit, runBaselinePush } from './app/measure-facility';
import { compositionOfFile } from './app/bundle-composition';
import { ensureDist } from './app/dist-check';
import { BENCH_PIN } from './app/device-lock';
import { buildHooksScript, injectHooks } from './app/inject-bundle';
import { coldStartOffline, queueAndPush } from './app/measure-offline';
import { timeUnlockParticipants } from './app/measure-unlock';
import { measureIncrementalPull, measureIncrementalPullWithoutFeed } from './app/measure-pull';
import { measureIdleMinute, measureLiveChange } from './app/measure-live';
import { countOpeningRequests } from './app/measure-requests';
import { measureInitialSync } from './app/measure-sync';
import { peakHeap, timeOpenParticipants, timeSearch } from './app/measure-participants';
import { timeDuplicates } from './app/measure-duplicates';
import { prepareRosterClass, timeAttendanceTaps, timeRosterOpen } from './app/measure-attendance';
import { planDuplicateKeystrokes } from './app/duplicates-plan';
import { coachScope, measureAdminFirstSync, measureScopedFirstSync, measureScopeGrow, participantsHeld, serverCounts } from './app/measure-scope';
import { markdownTable } from './app/report';
import { buildRows, type Results } from './app/rows';
import { planKeystrokes, SEARCH_WORDS } from './app/search-plan';
import { BENCH_COACH } from './app/dataset';
import { DATASET_VERSION, seedBenchData } from './app/seed';
import { startServer } from './app/server-process';

const ROOT = resolve(import.meta.dirname, '../..');
const APP = DEFAULT_APP_ID;
const COACH = BENCH_COACH;
const ADMIN = 'admin@example.org';
const OPEN_RUNS = 5;
const ROSTER_OPEN_RUNS = 5;
const ATTENDANCE_TAPS = 30;
const UNLOCK_RUNS = 5;
const KEYSTROKES = 20;
const QUEUED_OPS = 1000;
const FACILITY_LATENCY_MS = 150;

const t0 = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${msg}`);
const results: Results = {};
const why = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0] : String(e)).slice(0, 160);

/**
 * BENCH_ONLY=sync (`npm run bench:sync`, issue #3): only the sync figures in Chromium — initial
 * sync with its bulkPut floor, the incremental pull, and 1,000 queued ops pushed (which needs the
 * offline cold start to queue them).
 * BENCH_ONLY=scope (issue #22.7): only the scope rows — the coach's first sync (loopback and
 * facility link), the participants their tablet holds, the scope grown by one site, and the
 * administrator's first sync of every site with the IndexedDB floor measured on that profile.
 * BENCH_ONLY=duplicates (issue #23.7): the administrator's first sync, then AddParticipant's
 * possible duplicates while typing at CPU 4× over the 10,000 participants on the tablet.
 * BENCH_ONLY=attendance (issue #23): the coach's first sync, then their roster of 30 opened
 * offline and 30 taps on it, at CPU 4× (app/measure-attendance.ts).
 * BENCH_ONLY=feed (issue #24.1): the administrator's first sync (loopback and facility link), then
 * the incremental pull of 10 changes with the change feed and without it (per entity) on each.
 * BENCH_ONLY=live (issue #24.2): the coach's first sync (loopback and facility link), then on each
 * page an administrator's change over HTTP → visible on the open Participants page (10 runs), and
 * on loopback the requests of an idle online minute (app/measure-live.ts).
 */
const ONLY = process.env.BENCH_ONLY ?? '';
const ONLY_SYNC = ONLY === 'sync';
const ONLY_SCOPE = ONLY === 'scope';
const ONLY_DUPLICATES = ONLY === 'duplicates';
const ONLY_FEED = ONLY === 'feed';
const ONLY_ATTENDANCE = ONLY === 'attendance';
const ONLY_LIVE = ONLY === 'live';
const LIVE_STEPS = new Set<string>(['coachSync', 'liveChange', 'idleMinute', 'coachFacility', 'liveChangeFacility']);
const ATTENDANCE_STEPS = new Set<string>(['coachSync', 'rosterOpen', 'attendanceTaps']);
const SYNC_STEPS = new Set<string>(['initial', 'floor', 'crypto', 'pull', 'pullFallback', 'coldStart', 'push', 'facilitySync', 'facilityPull', 'facilityPullFallback', 'facilityPush']);
const FEED_STEPS = new Set<string>(['initial', 'pull', 'pullFallback', 'facilitySync', 'facilityPull', 'facilityPullFallback']);
const SCOPE_STEPS = new Set<string>(['coachSync', 'coachHeld', 'scopeGrow', 'adminSync', 'coachFacility']);

/** Runs one measurement; a failure becomes its row's "n/a: <why>" and the run goes on. */
async function step<K extends keyof Results>(key: K, name: string, fn: () => Promise<Results[K]>): Promise<void> {
  if (ONLY_SYNC && !SYNC_STEPS.has(key)) return;
  if (ONLY_FEED && !FEED_STEPS.has(key)) return;
  if (ONLY_SCOPE && !SCOPE_STEPS.has(key)) return;
  if (ONLY_DUPLICATES && key !== 'initial' && key !== 'duplicates') return;
  if (ONLY_ATTENDANCE && !ATTENDANCE_STEPS.has(key)) return;
  if (ONLY_LIVE && !LIVE_STEPS.has(key)) return;
  log(`${name}…`);
  try {
    results[key] = await fn();
  } catch (e) {
    results[key] = why(e) as Results[K];
    log(`${name} failed: ${why(e)}`);
  }
}

const work = mkdtempSync(join(tmpdir(), 'passage-bench-'));
const dataDir = join(work, 'data');
const profileDir = join(work, 'profile');
let seededCounts: Record<string, number> = {};

const dist = ensureDist(ROOT);
log(dist.built ? `built the app into ${dist.distDir} (dist/ was older than src/)` : 'using dist/');
const cache = process.env.BENCH_SEED_CACHE;
const cacheVersion = cache && existsSync(join(cache, 'version')) ? readFileSync(join(cache, 'version'), 'utf8').trim() : null;
if (cache && existsSync(join(cache, 'counts.json')) && cacheVersion === DATASET_VERSION) {
  cpSync(join(cache, 'data'), dataDir, { recursive: true });
  seededCounts = JSON.parse(readFileSync(join(cache, 'counts.json'), 'utf8'));
  log(`copied the seeded data set from ${cache}`);
} else {
  const seeded = await seedBenchData(dataDir, APP);
  seededCounts = seeded.counts;
  log(`seeded ${Object.entries(seeded.counts).map(([k, v]) => `${v} ${k}`).join(', ')} in ${(seeded.ms / 1000).toFixed(0)} s`);
  if (cache) {
    // A cache seeded from an older data set is replaced (issue #22.7 changed who leads the cohorts).
    rmSync(join(cache, 'data'), { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    cpSync(dataDir, join(cache, 'data'), { recursive: true });
    writeFileSync(join(cache, 'counts.json'), JSON.stringify(seeded.counts));
    writeFileSync(join(cache, 'version'), DATASET_VERSION);
  }
}
const expected = seededCounts.Participant;
const server = await startServer(dist.serveRoot, dataDir, APP);
log(`server at ${server.baseUrl}`);
// Ctrl+C or a timeout must not leave the server (and its PGlite lock) behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.stop().finally(() => {
      rmSync(work, { recursive: true, force: true });
      process.exit(130);
    });
  });
}

try {
  const coachApi = await signInApi(server.baseUrl, APP, COACH, DEMO_PASSWORD);
  const adminApi = await signInApi(server.baseUrl, APP, ADMIN, DEMO_PASSWORD);
  const coach = await coachApi.get<{ id: string }>(`/apps/${APP}/entities/User/me`);
  const admin = await adminApi.get<{ id: string }>(`/apps/${APP}/entities/User/me`);
  const people = await listAll<Pick<Participant, 'id' | 'first_name' | 'last_name' | 'email' | 'middle_name' | 'date_of_birth' | 'cdcr_number'>>(
    coachApi,
    APP,
    'Participant',
    'id,first_name,last_name,email,middle_name,date_of_birth,cdcr_number',
  );
  const plan = planKeystrokes(people.map((p) => searchKey(p)), SEARCH_WORDS, KEYSTROKES);
  const duplicatesPlan = planDuplicateKeystrokes(people, KEYSTROKES);
  const hooks = await buildHooksScript(ROOT);
  const marks = { expectedParticipants: expected };
  // Issue #23: the coach's class of 30, its session moved to today when the seed is from another day.
  const rosterClass = ONLY_SYNC || ONLY_DUPLICATES || ONLY_FEED || ONLY_LIVE ? null : await prepareRosterClass(adminApi, APP).catch((e: unknown) => why(e));
  if (rosterClass) log(typeof rosterClass === 'string' ? `roster class: ${rosterClass}` : `roster class ${rosterClass.cohortCode}: ${rosterClass.participantIds.length} active enrollments${rosterClass.moved ? ', session moved to today' : ''}`);

  // Issue #22.7, the scope rows, each on a fresh profile, before anything adds rows to the server
  // (the administrator's whole set is then the same rows as the floor's).
  const scope = ONLY_SYNC || ONLY_DUPLICATES || ONLY_FEED ? null : await coachScope(adminApi, APP, COACH);
  if (scope) {
    log(`the coach's scope: ${scope.siteIds.length} sites (${scope.siteNames.join(', ')}), rows ${JSON.stringify(scope.expected)}; grows by ${scope.grow?.siteName ?? 'none'}`);
    const coachContext = await openProfile(join(work, 'coach-profile'), { expectedParticipants: scope.expected.participants });
    try {
      const coachPage = await firstPage(coachContext);
      await step('coachSync', `coach's first sync (${scope.siteIds.length} sites) → Dashboard usable, loopback`, async () => {
        const s = await withTimeout(measureScopedFirstSync(coachPage, server.baseUrl, COACH, DEMO_PASSWORD, hooks, scope), 300_000, "coach's first sync");
        log(`  Dashboard usable ${Math.round(s.usableMs)} ms (PIN screen ${Math.round(s.pinScreenMs)} ms + Save PIN → usable ${Math.round(s.usableAfterSaveMs)} ms), whole scope ${Math.round(s.completeMs)} ms; ${(s.apiBytes / 1024).toFixed(1)} KB in ${s.apiRequests} API requests; ${JSON.stringify(s.counts)}`);
        return s;
      });
      const synced = typeof results.coachSync === 'object';
      await step('coachHeld', "participants held by the coach's tablet", async () => {
        if (!synced) throw new Error("the coach's first sync did not finish");
        const h = await participantsHeld(coachPage, hooks, scope);
        log(`  scope ${h.scope}, tablet ${h.tablet} (own intakes ${h.ownIntakes}, outside ${h.outside}, missing ${h.missing})`);
        return h;
      });
      await step('scopeGrow', `the coach's scope grows by one site (${scope.grow?.siteName ?? 'none'})`, async () => {
        if (!synced) throw new Error("the coach's first sync did not finish");
        const g = await withTimeout(measureScopeGrow(coachPage, hooks, scope, coach.id), 180_000, 'scope grows by one site');
        log(`  ${Math.round(g.ms)} ms for ${JSON.stringify(g.rows)} via ${g.via}; ${g.requests} requests, ${(g.bytes / 1024).toFixed(1)} KB; sites ${g.sitesBefore} → ${g.sitesAfter}`);
        return g;
      });
      // Issue #24.2: while the coach's page is online: a change made elsewhere shows on it; an idle minute.
      await step('liveChange', "change by an admin over HTTP → visible on the coach's open Participants page, loopback", async () => {
        if (!synced) throw new Error("the coach's first sync did not finish");
        const l = await withTimeout(measureLiveChange(coachPage, adminApi, APP), 600_000, 'live change');
        log(`  ${l.runs.map((v) => Math.round(v)).join(', ')} ms; p95 ${Math.round(l.p95)} ms; API requests per change ${l.requests.join(', ')}`);
        return l;
      });
      await step('idleMinute', 'requests in an idle online minute (Participants open)', async () => {
        if (!synced) throw new Error("the coach's first sync did not finish");
        const i = await withTimeout(measureIdleMinute(coachPage), 180_000, 'idle minute');
        log(`  ${i.requests} requests besides the stream (${i.urls.join(', ') || 'none'}); stream opened ${i.streamOpenings}×`);
        return i;
      });
      // Issue #23: the coach's roster with no network on a slow tablet; the context stays offline.
      await setCpuRate(coachPage, 4);
      await step('rosterOpen', 'attendance: roster of 30 opened offline, CPU 4×', async () => {
        if (!synced) throw new Error("the coach's first sync did not finish");
        if (!rosterClass || typeof rosterClass === 'string') throw new Error(rosterClass ?? 'no roster class');
        const o = await withTimeout(timeRosterOpen(coachPage, server.baseUrl, rosterClass, ROSTER_OPEN_RUNS), 240_000, 'roster opened offline');
        log(`  Dashboard click → roster usable ${o.runs.map((v) => Math.round(v)).join(', ')} ms; cold on its address: lock screen ${Math.round(o.cold.lockScreenMs)} ms + Unlock → roster ${Math.round(o.cold.unlockToRosterMs)} ms`);
        return o;
      });
      await step('attendanceTaps', `attendance: ${ATTENDANCE_TAPS} taps offline, CPU 4×`, async () => {
        if (typeof results.rosterOpen !== 'object' || !rosterClass || typeof rosterClass === 'string') throw new Error('the roster did not open offline');
        const t = await withTimeout(timeAttendanceTaps(coachPage, rosterClass, ATTENDANCE_TAPS), 180_000, 'attendance taps');
        log(`  tap → shown and saved ${t.taps.map((v) => Math.round(v)).join(', ')} ms`);
        return t;
      });
      await setCpuRate(coachPage, 1);
    } finally {
      await coachContext.close().catch(() => undefined);
    }
    if (!ONLY_ATTENDANCE && !ONLY_LIVE) {
      const adminRows = await serverCounts(adminApi, APP);
      const adminContext = await openProfile(join(work, 'admin-profile'), { expectedParticipants: adminRows.participants });
      try {
        const adminPage = await firstPage(adminContext);
        await step('adminSync', "administrator's first sync of every site → Participants usable, whole set", async () => {
          const s = await withTimeout(measureAdminFirstSync(adminPage, server.baseUrl, ADMIN, DEMO_PASSWORD, hooks, adminRows), 400_000, "administrator's first sync");
          log(`  Participants usable ${Math.round(s.participantsUsableMs)} ms (PIN screen ${Math.round(s.pinScreenMs)} ms + Save PIN → usable ${Math.round(s.usableAfterSaveMs)} ms), whole set ${Math.round(s.completeMs)} ms (Save PIN → ${Math.round(s.completeAfterSaveMs)} ms), ${s.rows} rows`);
          if (ONLY_SCOPE) {
            // The full bench compares with its floor row; alone, the same floor on this profile.
            await injectHooks(adminPage, hooks);
            const f = await adminPage.evaluate(
              (caps) => (window as unknown as { __benchHooks: { idbFloor(caps: Record<string, number>): Promise<{ rows: number; ms: number }> } }).__benchHooks.idbFloor(caps),
              { participants: adminRows.participants },
            );
            log(`  IndexedDB floor (bulkPut, sealed) ${Math.round(f.ms)} ms for ${f.rows} rows`);
            s.floor = { rows: f.rows, ms: f.ms };
          }
          return s;
        });
      } finally {
        await adminContext.close().catch(() => undefined);
      }
    }
  }

  if (!ONLY_SCOPE && !ONLY_ATTENDANCE && !ONLY_LIVE) {
    // The first sign-in's page counts the sealed rows it writes and reads (the encryption share, #14.4).
    let context = await openProfile(profileDir, { ...marks, countSealed: true });
    let page = await firstPage(context);
    await step('initial', 'initial sync (first sign-in, empty profile; PIN set on the way)', async () => {
      // The whole academy on a tablet: the administrator's (issue #22: the coach's holds their 3 sites).
      const s = await measureInitialSync(page, server.baseUrl, dist.distDir, ADMIN, DEMO_PASSWORD);
      log(`  synced in ${Math.round(s.syncedMs)} ms (PIN screen at ${Math.round(s.pinScreenMs)} ms, Save PIN → synced ${Math.round(s.syncedAfterSaveMs)} ms, typing ${Math.round(s.typingMs)} ms left out): ${s.apiRequests} API requests, ${(s.apiBytes / 1e6).toFixed(1)} MB, API in flight ${Math.round(s.apiBusyMs)} ms`);
      log(`  sealed rows written ${JSON.stringify(s.sealed?.written)}, read ${JSON.stringify(s.sealed?.read)}`);
      // Which packages make up the first-load JavaScript (from the build's source maps).
      const parts = new Map<string, number>();
      for (const f of s.js.files) for (const [group, n] of compositionOfFile(join(dist.distDir, f.path)) ?? []) parts.set(group, (parts.get(group) ?? 0) + n);
      const jsParts = Object.fromEntries([...parts].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([g, n]) => [g, Math.round(n / 1024)]));
      log(`  first-load JS by package (KB raw): ${JSON.stringify(jsParts)}`);
      return { jsParts, syncedMs: s.syncedMs, pinScreenMs: s.pinScreenMs, syncedAfterSaveMs: s.syncedAfterSaveMs, typingMs: s.typingMs, wallMs: s.wallMs, deviceKeyMs: s.deviceKeyMs, sealed: s.sealed, appReadyMs: s.appReadyMs, figuresMs: s.figuresMs, jsGzip: s.js.gzip, jsRaw: s.js.raw, jsFiles: s.js.files.length, jsNeededGzip: s.js.neededGzip, jsNeededFiles: s.js.neededFiles, apiRequests: s.apiRequests, apiBytes: s.apiBytes, apiBusyMs: s.apiBusyMs, slowestApiMs: s.slowestApiMs, files: s.js.files } as Results['initial'];
    });
    await withTimeout(serviceWorkerControls(page), 60_000, 'service worker').catch((e) => log(`service worker: ${why(e)}`));
    const open: Record<string, number[]> = {};
    const search: Record<string, number[]> = {};
    for (const rate of [1, 4]) {
      await setCpuRate(page, rate);
      await step('open', `Participants click → first cards, CPU ${rate}×`, async () => {
        open[rate] = await timeOpenParticipants(page, OPEN_RUNS, expected);
        return open;
      });
      await step('search', `search keystrokes, CPU ${rate}×`, async () => {
        search[rate] = await timeSearch(page, plan, KEYSTROKES);
        return search;
      });
      // Issue #23.7: the intake's look-up on a slow tablet (its goal is set at 4× only).
      if (rate === 4) await step('duplicates', 'AddParticipant: possible duplicates while typing, CPU 4×', () => withTimeout(timeDuplicates(page, duplicatesPlan, KEYSTROKES), 180_000, 'duplicates while typing'));
    }
    await setCpuRate(page, 1);
    await step('heap', 'peak JS heap on Participants', () => peakHeap(page, plan, expected));
    await step('requests', 'requests while opening pages after sync', () => countOpeningRequests(page, expected));
    await step('pull', 'incremental pull of 10 remote changes (change feed, S17)', () =>
      withTimeout(measureIncrementalPull(page, adminApi, APP, people.slice(0, 10).map((p) => p.id), hooks), 120_000, 'incremental pull'),
    );
    // Issue #24.1: the same on a server without the feed (per-entity pulls), after the feed row.
    await step('pullFallback', 'incremental pull of 10 remote changes, per entity (no change feed)', () =>
      withTimeout(measureIncrementalPullWithoutFeed(page, adminApi, APP, people.slice(0, 10).map((p) => p.id), hooks, '777'), 180_000, 'incremental pull without the feed'),
    );
    await step('unlock', `Unlock → Participants usable (Lock button on Participants, ${UNLOCK_RUNS} runs)`, async () => {
      const u = await withTimeout(timeUnlockParticipants(page, UNLOCK_RUNS, expected), 300_000, 'unlock → Participants');
      log(`  ${u.runs.map((r) => Math.round(r)).join(', ')} ms`);
      return u;
    });

    await context.close();
    await step('coldStart', 'cold start offline', async () => {
      const cold = await coldStartOffline(profileDir, server.baseUrl, marks);
      context = cold.context;
      page = cold.page;
      log(`  lock screen ${Math.round(cold.lockScreenMs)} ms + Unlock → figures ${Math.round(cold.unlockToFiguresMs)} ms (typing ${Math.round(cold.typingMs)} ms left out)`);
      return { interactiveMs: cold.interactiveMs, lockScreenMs: cold.lockScreenMs, unlockToFiguresMs: cold.unlockToFiguresMs, typingMs: cold.typingMs, unlockToHeadingMs: cold.unlockToHeadingMs };
    });
    await step('push', `${QUEUED_OPS} queued ops pushed after reconnect`, async () => {
      if (!context.pages().length) throw new Error('no offline page (cold start failed)');
      const p = await queueAndPush(page, server.baseUrl, hooks, admin.id, QUEUED_OPS, 'bench');
      const after = await listAll(coachApi, APP, 'Participant', 'id');
      return { ...p, arrived: after.length - expected };
    });
    // The floor and the per-row crypto costs write ~200,000 rows into scratch databases of this
    // profile: last on it, since Chromium's IndexedDB keeps working through them for seconds after
    // (Participants at CPU 4× took 290-455 ms right after them, 110-190 ms before).
    await step('floor', 'IndexedDB floor (the same rows, bulkPut only; engine page writes with and without encryption)', async () => {
      await injectHooks(page, hooks);
      // As many participants as the first sync wrote: the push step above added QUEUED_OPS more.
      const f = await page.evaluate(
        (caps) => (window as unknown as { __benchHooks: { idbFloor(caps: Record<string, number>): Promise<Exclude<Results['floor'], string | undefined>> } }).__benchHooks.idbFloor(caps),
        { participants: expected },
      );
      log(`  bulkPut ${Math.round(f.ms)} ms; engine page writes ${Math.round(f.engineMs ?? 0)} ms sealed, ${Math.round(f.plainEngineMs ?? 0)} ms without the middleware`);
      return f;
    });
    await step('crypto', 'sealing and opening cost per row, Argon2id', async () => {
      await injectHooks(page, hooks);
      const c = await page.evaluate((pin) => (window as unknown as { __benchHooks: { cryptoCosts(pin: string): Promise<Exclude<Results['crypto'], string | undefined>> } }).__benchHooks.cryptoCosts(pin), BENCH_PIN);
      log(`  ${JSON.stringify(c)}`);
      return c;
    });
    await context.close().catch(() => undefined);
  }

  // Issue #11: a fresh tablet behind the facility link (facility-link.ts): first visit, sign-in and
  // first sync, a pull of 10 changes, 1,000 ops queued offline and pushed; then the online-only
  // client through the same link. After the loopback push, so the server holds 1,000 more
  // participants than seeded: the expected counts are read from it.
  const link = await startLinkProxy(server.baseUrl, FACILITY_LINK);
  log(`facility link: ${describeLink(FACILITY_LINK)}, proxy at ${link.baseUrl}`);
  try {
    if (!ONLY_SCOPE && !ONLY_DUPLICATES && !ONLY_ATTENDANCE && !ONLY_LIVE) {
      const facilityDir = join(work, 'facility-profile');
      const expectedRows = await serverCounts(coachApi, APP);
      const facilityMarks = { expectedParticipants: expectedRows.participants };
      let fContext = await openProfile(facilityDir, facilityMarks);
      let fPage = await firstPage(fContext);
      await step('facilityVisit', 'facility link: first visit → sign-in page', async () => {
        const compressed = await withTimeout(measureFirstVisit(fPage, link), 120_000, 'first visit');
        const plainLink = await startLinkProxy(server.baseUrl, FACILITY_LINK, { identity: true });
        const browser = await launchPlain();
        try {
          const identity = await withTimeout(measureFirstVisit(await (await browser.newContext()).newPage(), plainLink), 120_000, 'first visit, uncompressed');
          log(`  ${Math.round(compressed.ms)} ms (${Math.round(compressed.bytesDown / 1024)} KB); uncompressed ${Math.round(identity.ms)} ms (${Math.round(identity.bytesDown / 1024)} KB)`);
          return { compressed, identity };
        } finally {
          await browser.close();
          await plainLink.close();
        }
      });
      await step('facilitySync', 'facility link: sign-in and first sync', async () => {
        // The whole data set: the administrator's tablet (issue #22).
        const s = await withTimeout(measureFacilitySync(fPage, link, ADMIN, DEMO_PASSWORD, hooks, expectedRows), 400_000, 'first sync through the facility link');
        log(`  Set a PIN usable ${Math.round(s.pinScreenMs)} ms after the Sign in click, Save PIN → usable ${Math.round(s.usableAfterSaveMs)} ms (typing ${Math.round(s.typingMs)} ms left out)`);
        log(`  Participants usable ${Math.round(s.participantsUsableMs)} ms, complete ${Math.round(s.completeMs)} ms, ${(s.apiBytes / 1e6).toFixed(2)} MB API in ${s.apiRequests} requests`);
        return s;
      });
      await withTimeout(serviceWorkerControls(fPage), 120_000, 'service worker (facility link)').catch((e) => log(`service worker: ${why(e)}`));
      await step('facilityPull', 'facility link: incremental pull of 10 remote changes (change feed, S17)', () =>
        withTimeout(measureIncrementalPull(fPage, adminApi, APP, people.slice(0, 10).map((p) => p.id), hooks, '888'), 120_000, 'incremental pull (facility link)'),
      );
      await step('facilityPullFallback', 'facility link: incremental pull of 10 remote changes, per entity (no change feed)', () =>
        withTimeout(measureIncrementalPullWithoutFeed(fPage, adminApi, APP, people.slice(0, 10).map((p) => p.id), hooks, '666'), 180_000, 'incremental pull without the feed (facility link)'),
      );
      await fContext.close();
      await step('facilityPush', `facility link: ${QUEUED_OPS} queued ops pushed`, async () => {
        const cold = await coldStartOffline(facilityDir, link.baseUrl, facilityMarks);
        fContext = cold.context;
        fPage = cold.page;
        const before = (await coachApi.get<{ count: number }>(`/apps/${APP}/entities/Participant/count`)).count;
        const p = await queueAndPush(fPage, link.baseUrl, hooks, admin.id, QUEUED_OPS, 'facility');
        const after = (await coachApi.get<{ count: number }>(`/apps/${APP}/entities/Participant/count`)).count;
        return { ...p, arrived: after - before };
      });
      await fContext.close().catch(() => undefined);
    }
    // Issue #22.7: the coach's first sync of their sites through the same link, on a fresh profile.
    if (scope && !ONLY_ATTENDANCE) {
      const cfContext = await openProfile(join(work, 'coach-facility-profile'), { expectedParticipants: scope.expected.participants });
      try {
        const cfPage = await firstPage(cfContext);
        await step('coachFacility', `facility link: coach's first sync (${scope.siteIds.length} sites) → Dashboard usable`, async () => {
          const s = await withTimeout(measureScopedFirstSync(cfPage, link.baseUrl, COACH, DEMO_PASSWORD, hooks, scope, link), 300_000, "coach's first sync through the facility link");
          log(`  Dashboard usable ${Math.round(s.usableMs)} ms from the Sign in click (PIN screen ${Math.round(s.pinScreenMs)} ms + Save PIN → usable ${Math.round(s.usableAfterSaveMs)} ms), whole scope ${Math.round(s.completeMs)} ms; ${(s.apiBytes / 1024).toFixed(1)} KB API in ${s.apiRequests} requests`);
          return s;
        });
        await step('liveChangeFacility', "facility link: change by an admin over HTTP → visible on the coach's open Participants page", async () => {
          if (typeof results.coachFacility !== 'object') throw new Error("the coach's first sync did not finish");
          const l = await withTimeout(measureLiveChange(cfPage, adminApi, APP), 600_000, 'live change (facility link)');
          log(`  ${l.runs.map((v) => Math.round(v)).join(', ')} ms; p95 ${Math.round(l.p95)} ms; API requests per change ${l.requests.join(', ')}`);
          return l;
        });
      } finally {
        await cfContext.close().catch(() => undefined);
      }
    }
    await step('facilityBaseline', 'online-only baseline through the facility link', async () => {
      const browser = await launchPlain();
      try {
        const before = link.stats();
        const page = await runBaseline(browser, link.baseUrl, APP, coachApi.token, 'facility link', BASELINE_CAP_MS);
        const after = link.stats();
        log(`  names ${Math.round(page.firstRenderMs)} ms, first screen ${page.firstScreenMs === null ? 'not done' : Math.round(page.firstScreenMs)}; ${page.answered}/${page.requests} answered`);
        const push = await runBaselinePush(browser, link.baseUrl, APP, coachApi.token, QUEUED_OPS, BASELINE_CAP_MS);
        log(`  ${push.answered}/${push.sent} creates in ${push.ms === null ? `> ${BASELINE_CAP_MS} ms` : `${Math.round(push.ms)} ms`}`);
        return { page: { ...page, wireBytes: after.up + after.down - before.up - before.down }, push };
      } finally {
        await browser.close();
      }
    });
  } finally {
    await link.close();
  }

  await step('baseline', 'online-only baseline (loopback, then 150 ms per request)', async () => {
    const browser = await launchPlain();
    const proxy = await startDelayProxy(server.baseUrl, FACILITY_LATENCY_MS);
    try {
      const out: BaselineResult[] = [];
      out.push(await runBaseline(browser, server.baseUrl, APP, coachApi.token, 'loopback'));
      log(`  loopback: ${Math.round(out[0].allDoneMs ?? NaN)} ms for ${out[0].requests} requests`);
      out.push(await runBaseline(browser, proxy.baseUrl, APP, coachApi.token, `${FACILITY_LATENCY_MS} ms per request`));
      return out;
    } finally {
      await proxy.close();
      await browser.close();
    }
  });
} finally {
  await server.stop();
}

const rows = buildRows(results).filter((row) => !ONLY || !String(row.value).includes('not run'));
const resultsFile = ONLY_SYNC
  ? 'bench/results-sync.json'
  : ONLY_SCOPE
    ? 'bench/results-scope.json'
    : ONLY_DUPLICATES
      ? 'bench/results-duplicates.json'
      : ONLY_FEED
        ? 'bench/results-feed.json'
      : ONLY_ATTENDANCE
        ? 'bench/results-attendance.json'
        : ONLY_LIVE
          ? 'bench/results-live.json'
          : 'bench/results.json';
const table = markdownTable(rows);
mkdirSync(join(ROOT, 'bench'), { recursive: true });
const meta = { date: new Date().toISOString(), cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version, seeded: seededCounts, totalSeconds: Math.round((performance.now() - t0) / 1000) };
writeFileSync(join(ROOT, resultsFile), `${JSON.stringify({ meta, rows, raw: results }, null, 2)}\n`);
if (dist.built) rmSync(dist.serveRoot, { recursive: true, force: true });
console.log(`\n${table}\n\n${meta.date}, ${meta.cpus} cores (${meta.cpuModel}), Node ${meta.node}; total ${meta.totalSeconds} s. Written to ${resultsFile}.`);
rmSync(work, { recursive: true, force: true });
