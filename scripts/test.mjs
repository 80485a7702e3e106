// `npm test`: lints (ESLint: the layer map of docs/design.md, no import cycles, typescript-eslint and
// react-hooks rules), builds the app twice (dist/; the browser tests drive dist-e2e/), starts a throwaway
// PostgreSQL when one is installed (so the Store contract suite runs on PGlite and on PostgreSQL),
// runs every vitest project, and ends with one line that says what it counted:
//
//   1307 passed, 0 failed (tests); 527 files lint-clean, 0 with lint errors
//
// "passed" counts tests only; "failed" counts failed tests plus files with lint errors (and a build
// that did not finish), so the line starts `N passed, N failed` and N failed is 0 only when all is well.
import { fork, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { constants, setPriority } from 'node:os';
import { createRequire } from 'node:module';
import { postgresAvailable, startCluster } from './pg-cluster.mjs';

const extra = process.argv.slice(2);
/** Each integration file's seconds in the last run here; the reserve goes out by them (sharedFiles). */
const DURATIONS = '.tmp/test-durations.json';
/** The integration files handed out one at a time at the end (sharedFiles). */
const RESERVE = [
  'sync/convergence',
  'store/statement-timeout',
  'server/expensive-queries',
  ...['admin-create', 'backup', 'two-instances', 'main-process', 'shared-secret-postgres', 'events-shutdown'].map((name) => `server/${name}`),
].map((name) => `test/integration/${name}.test.ts`);
const env = { ...process.env };
const clusters = [];

mkdirSync('.tmp', { recursive: true });

// Two throwaway clusters when the browser run and the rest run side by side: one for the browser
// tests' servers, one for the rest. The change feed (S17) hands out a change only once every older
// transaction of the cluster has ended (pg_snapshot_xmin is the cluster's, server/store/feed-sql.ts),
// so on one shared cluster the browser tests' servers held back what the feed and engine tests read
// at once (three S17 tests failed in one whole run; with two rest workers on one cluster, an S16
// test). A second cluster costs about 2 CPU-s to start. TEST_DATABASE_URL (yours) is used for both.
// Both start side by side, and beside ESLint and the build, which need neither: about 1 s of the
// run's start instead of 2 one after the other (issue #27.5). The lanes wait for them:
// clustersReady resolves to the URL each lane's TEST_DATABASE_URL takes ({} without clusters, when
// the run's own TEST_DATABASE_URL stands for both).
const clustersReady = startClusters();
async function startClusters() {
  if (env.TEST_DATABASE_URL || !postgresAvailable()) return {};
  const sideBySide = !extra.length && !env.TEST_SERIAL;
  const started = await Promise.allSettled(Array.from({ length: sideBySide ? 2 : 1 }, () => startCluster()));
  for (const r of started) if (r.status === 'fulfilled') clusters.push(r.value);
  // Stopped however the run ends: a crash or Ctrl-C left them running (pg_ctl stop is synchronous).
  process.on('exit', () => clusters.forEach((c) => c.stop()));
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    console.log(`PostgreSQL test cluster could not start (${failed.reason?.message}); PostgreSQL variants will report it.`);
    return {};
  }
  console.log(`PostgreSQL test clusters: ${clusters.map((c) => c.url).join(', ')}`);
  return { rest: clusters[0].url, browser: (clusters[1] ?? clusters[0]).url };
}

/** The environment of a process that runs tests on `cluster` ('rest' or 'browser') of clustersReady. */
async function testEnv(cluster) {
  const url = (await clustersReady)[cluster];
  return url ? { ...env, TEST_DATABASE_URL: url } : env;
}

// Three things side by side (issue #27.5):
// - ESLint (the layer map, ~40 s of CPU) at the lowest priority, on what the lanes leave idle
//   (lowestPriority), its report read at the end;
// - the browser lane: the build, then the browser tests, one file at a time (E2E_WORKERS), each
//   with its own server (and the lane's one Chromium), then integration files;
// - the other lane: unit and component tests, which need no build, one file at a time
//   (REST_WORKERS), then integration files.
// The integration files are shared (scripts/test-lane.mjs): the lane whose own files end first
// takes most of them, and then each lane takes the rest one at a time as it comes free, so the
// two lanes end together on any machine (sharedFiles). A fixed split
// ended them together on one machine and 55 s apart on a slower one (the rest's 549 s against
// 15 + 479: the unit and component files slowed more than Chromium did), and CI's machine is not
// ours to measure. The machine is busy throughout, so past that only less CPU shortens a run.
// The run took about 1,500 CPU-s (13:11) at first; then 835-1,050 busy CPU-s (460-580 s) on this
// 2-core machine while other sessions shared it; on a quiet one (2026-11-28) 725 busy CPU-s
// (373 s of npm test) and, once no screen test mocked a module and the clusters started side by
// side, 678 (350 s): `.ci/run` on a fresh clone took 374 s with Chromium installed and 388-394 s
// with it to install, of which npm install 24-33 s. About 8% of the cores' time is idle. What
// took it there, each where it is done: files share their worker's modules (vitest.config.ts),
// and no screen test mocks a module (docs/design.md, house style); new PGlite databases
// start from one migrated dump (test/support/pglite-template.ts); most servers run on PostgreSQL copies
// (test/support/test-databases.ts) as one bundled module, and operator commands as bundles too
// (scripts/build-server.mjs); a worker keeps one Chromium without the address-bar popup
// (test/support/processes.ts); a browser test loads a page only when loading is the point, shares
// a signed-in session where signing in is not its subject, asks for a one-pass, 1 MiB PIN, blocks
// the service worker unless it is the subject and asks for reduced motion (test/e2e/harness.ts,
// docs/design.md "house style"); component files run without sonner's stylesheet
// (test/component/setup.ts); the app's build makes 31 files instead of 82 (vite.config.ts,
// 'shared'); the screens share one live sync-status reading (src/data/queries/sync-status.ts).
// Where the CPU went (980 CPU-s sampled per process, before reduced motion): vitest processes
// ~360, Chromium ~380 (renderers ~210, the browser process ~90, its compositor ~50), servers
// started as processes ~80 and operator commands ~15, ESLint ~40, PostgreSQL ~30, builds ~20.
// The integration files' share of vitest's was mostly PGlite's threads, not the files' own code:
// with the server's HTTP tests on PostgreSQL copies, vitest processes took 302 CPU-s of a 922 run
// against 342 of 1,002 the run before (test/integration/server/harness.ts). A later sample (904
// CPU-s, 494 s): vitest 299, Chromium 339 (renderers 212, browser 89, GPU 28, network 10),
// servers 75, ESLint 45, PostgreSQL 30, builds 20. Run alone: the browser tests 366 s and 513
// CPU-s (50 contexts, 46 sign-ins, 206 page loads at about 1.3 CPU-s each), unit and component
// 119 s and 133, integration 229 s and 260.
// More files at once did not help: with 3+2 and 2+2 workers, three fresh-clone runs each failed
// 1-3 waits that ran out; with 1+2 the whole took 512 s against 517 on 995 CPU-s against 920, and
// three timing tests failed (the change feed waits for every transaction of the cluster,
// server/store/feed-sql.ts).
// The browser lane streams its output; the other's is printed whole when it ends, so the two
// never interleave.
// `npm test -- <vitest args>` runs one vitest with those arguments instead (after lint and build);
// TEST_SERIAL=1 runs the lanes one after another.
//
// The new-version browser test (pwa-update) runs with the other browser tests. It once ran alone,
// last: inside the browser run its reload never came. The cause was the engine: until 350c1fb a
// 2xx answer during a sync cycle queued another cycle, so a refused create kept the engine cycling
// (20-35 API requests a second), and a waiting service worker activates only once the old one has
// no fetch in flight.
const browserLane = { name: 'browser lane', own: ['e2e'], live: true, maxWorkers: Number(env.E2E_WORKERS ?? 1), cluster: 'browser' };
const restLane = { name: 'unit and component lane', own: ['unit', 'unit-isolated', 'component', 'component-isolated'], live: false, maxWorkers: Number(env.REST_WORKERS ?? 1), cluster: 'rest' };
const shared = sharedFiles();
const linting = runLint();
let results;
let buildFailed = false;
if (extra.length) {
  buildFailed = !(await build());
  results = buildFailed ? [] : [await runVitest(extra)];
} else if (env.TEST_SERIAL) {
  buildFailed = !(await build());
  results = [];
  if (!buildFailed) results.push(await runLane(browserLane));
  results.push(await runLane(restLane));
} else {
  const built = build().then((ok) => {
    buildFailed = !ok;
    return ok;
  });
  const notBuilt = { passed: 0, failed: 0, status: 1 };
  const browser = built.then((ok) => (ok ? runLane(browserLane) : notBuilt));
  results = await Promise.all([browser, runLane(restLane)]);
}
const lint = await linting;
let passed = 0;
let failed = 0;
let status = 0;
for (const r of results) {
  passed += r.passed;
  failed += r.failed;
  if (r.status !== 0) status = r.status || 1;
}
for (const c of clusters) c.stop();
console.log(summary(passed, failed + (buildFailed ? 1 : 0), lint, buildFailed ? 'the build failed' : undefined));
process.exit(status === 0 && lint.failed === 0 && !buildFailed ? 0 : status || 1);

/**
 * `vite build` twice (about 7 CPU-s each): dist/, what `npm start` serves (the browser tests check
 * it holds nothing of the test build), and `--mode e2e` into dist-e2e/, which the browser tests
 * drive (vite.config.ts). SKIP_BUILD=1 keeps the builds there are.
 */
async function build() {
  if (env.SKIP_BUILD) return true;
  const viteBuild = (...args) =>
    new Promise((done) => {
      const b = spawn('npx', ['vite', 'build', '--logLevel', 'warn', ...args], { stdio: 'inherit', env });
      b.on('close', (code) => done(code === 0));
    });
  return (await viteBuild()) && (await viteBuild('--mode', 'e2e'));
}

/** `npm test -- <args>`: one vitest with those arguments; its JSON report gives the counts. */
async function runVitest(args) {
  const vitestEnv = await testEnv('rest');
  const out = '.tmp/vitest-results.json';
  rmSync(out, { force: true });
  return new Promise((done) => {
    const child = spawn('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...args], { stdio: 'inherit', env: vitestEnv });
    child.on('close', (code) => {
      let passedHere = 0;
      let failedHere = 0;
      if (existsSync(out)) {
        const res = JSON.parse(readFileSync(out, 'utf8'));
        passedHere = res.numPassedTests ?? 0;
        failedHere = (res.numFailedTests ?? 0) + (res.numFailedTestSuites && !res.numFailedTests ? res.numFailedTestSuites : 0);
      }
      if (code !== 0 && failedHere === 0) failedHere = 1;
      done({ passed: passedHere, failed: failedHere, status: code ?? 1 });
    });
  });
}

/**
 * The integration files both lanes take from (scripts/test-lane.mjs). The first lane to ask gets
 * every one but RESERVE in one batch; then each ask gets one RESERVE file, longest first (by its
 * seconds in the last run here, .tmp/test-durations.json, else in RESERVE's order). A batch starts
 * a new worker, which loads the server's modules and compiles PGlite again: six batches of one
 * file took 15-21 CPU-s more than one batch of six. Six of the nine reserve files run the server
 * only as a process of their own, so a worker for one of them costs 0.5-2 CPU-s; statement-timeout
 * opens PGlite, but runs 16-20 s, convergence and expensive-queries load the server in process,
 * but run 50-60 s and 14-18 s.
 * Together (about 140 s of a loaded run) they cover what the two lanes have differed by: the
 * browser lane 9 s longer on one machine, the other 55 s longer on a slower one. With the seven
 * alone (about 60 s) the other lane still ended 20 s after the browser lane; with the eight
 * (about 80 s), once the browser tests asked for reduced motion, 18 and 31 s after it in two
 * fresh-clone runs, each holding a bulk batch of 47 files to the end; and 30 s after it (500 s
 * against 470) once the server's HTTP tests ran on PostgreSQL copies. expensive-queries (18 s,
 * the server in process on PGlite and PostgreSQL) joined the reserve then.
 * shutdown left it (issue #27.5): it mostly waits (16 s, 3 CPU-s: the documented 8 s exit bound
 * runs out in real time), and at the end, beside the other lane's one file, its wait left a core
 * idle; in the bulk, during the browser tests, Chromium's threads use that core. It shares no time
 * with another file of its cluster there either: a lane runs its files one at a time, and the
 * lock it holds ends with the server it kills.
 */
function sharedFiles() {
  for (const file of RESERVE) if (!existsSync(file)) throw new Error(`scripts/test.mjs: ${file} is gone; update RESERVE.`);
  const files = readdirSync('test/integration', { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative('.', join(e.parentPath, e.name)));
  let seconds = {};
  try {
    seconds = JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {
    // no earlier run here
  }
  const reserve = RESERVE.map((file, i) => ({ file, weight: seconds[file] ?? -i })).sort((a, b) => b.weight - a.weight).map((r) => r.file);
  let bulk = files.filter((f) => !RESERVE.includes(f));
  return {
    next() {
      if (bulk) {
        const batch = bulk;
        bulk = null;
        return batch;
      }
      return reserve.splice(0, 1);
    },
  };
}

/** One lane (scripts/test-lane.mjs), fed shared files as it asks; resolves with its counts. */
async function runLane(lane) {
  const laneEnv = await testEnv(lane.cluster);
  const t0 = Date.now();
  const out = `.tmp/lane-${lane.own[0]}.json`;
  rmSync(out, { force: true });
  const config = { name: lane.name, own: lane.own, shared: ['integration'], maxWorkers: lane.maxWorkers, out };
  return new Promise((done) => {
    const child = fork('scripts/test-lane.mjs', [JSON.stringify(config)], { stdio: lane.live ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', 'pipe', 'pipe', 'ipc'], env: laneEnv });
    const chunks = [];
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    let counts = null;
    child.on('message', (m) => {
      if (m.want) child.send({ files: shared.next() });
      else counts = m;
    });
    child.on('close', (code) => {
      if (!lane.live) process.stdout.write(`\n── ${lane.name} ──\n${Buffer.concat(chunks).toString()}`);
      const passedHere = counts?.passed ?? 0;
      let failedHere = counts?.failed ?? 0;
      if (code !== 0 && failedHere === 0) failedHere = 1;
      const took = Math.round((Date.now() - t0) / 1000);
      const sharedRan = (counts?.files ?? []).filter((f) => f.file.startsWith('test/integration/')).length;
      console.log(`${lane.name}: ${passedHere} passed, ${failedHere} failed in ${took} s (${sharedRan} integration files)`);
      if (counts?.files) rememberDurations(counts.files);
      done({ passed: passedHere, failed: failedHere, status: code ?? 1 });
    });
  });
}

/** Each shared file's seconds, for the next run's order (sharedFiles). */
function rememberDurations(files) {
  let seconds = {};
  try {
    seconds = JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {
    // the first run here
  }
  for (const f of files) if (f.file.startsWith('test/integration/')) seconds[f.file] = Math.round(f.seconds * 10) / 10;
  writeFileSync(DURATIONS, JSON.stringify(seconds, null, 1));
}

/** The last line: tests counted apart from lint-clean files (see the top of this file). */
function summary(testsPassed, testsFailed, lint, note) {
  const failedAll = testsFailed + lint.failed;
  const parts = [];
  if (lint.failed) parts.push(`${testsFailed} tests failed, ${lint.failed} files with lint errors`);
  if (note) parts.push(note);
  const detail = parts.length ? `tests; ${parts.join('; ')}` : 'tests';
  return `${testsPassed} passed, ${failedAll} failed (${detail}); ${lint.passed} files lint-clean, ${lint.failed} with lint errors`;
}

/**
 * Gives a process the lowest CPU priority (nice 19), so it runs on what the lanes leave idle.
 * Best effort: a system that refuses leaves it at normal priority.
 */
function lowestPriority(pid) {
  try {
    setPriority(pid, constants.priority.PRIORITY_LOW);
  } catch {
    // not permitted here: ESLint competes with the lanes, as before
  }
}

/** ESLint's command line, run with this Node (no npx in between, so lowestPriority reaches ESLint itself). */
function eslintBin() {
  const manifest = createRequire(import.meta.url).resolve('eslint/package.json');
  return join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.eslint);
}

/** ESLint over the repository; every problem is printed (when it ends), and each file counts once. */
function runLint() {
  const report = '.tmp/eslint-results.json';
  rmSync(report, { force: true });
  const t0 = Date.now();
  let bin;
  try {
    bin = eslintBin();
  } catch (err) {
    console.log(`ESLint did not run (${err.message}).`);
    return Promise.resolve({ passed: 0, failed: 1 });
  }
  return new Promise((done) => {
    const l = spawn(process.execPath, [bin, '.', '--format', 'json', '--output-file', report], { stdio: ['ignore', 'pipe', 'pipe'], env });
    lowestPriority(l.pid);
    const chunks = [];
    l.stdout.on('data', (c) => chunks.push(c));
    l.stderr.on('data', (c) => chunks.push(c));
    l.on('close', (code) => {
      process.stdout.write(Buffer.concat(chunks).toString());
      if (!existsSync(report)) {
        console.log(`ESLint did not run (exit ${code}).`);
        return done({ passed: 0, failed: 1 });
      }
      const files = JSON.parse(readFileSync(report, 'utf8'));
      let failedFiles = 0;
      for (const f of files) {
        for (const m of f.messages) {
          console.log(`${relative('.', f.filePath)}:${m.line}:${m.column} ${m.severity === 2 ? 'error' : 'warning'} ${m.message} (${m.ruleId ?? 'parse'})`);
        }
        if (f.errorCount > 0) failedFiles++;
      }
      console.log(`ESLint: ${files.length - failedFiles} of ${files.length} files clean (${Math.round((Date.now() - t0) / 1000)} s).`);
      done({ passed: files.length - failedFiles, failed: failedFiles + (code !== 0 && failedFiles === 0 ? 1 : 0) });
    });
  });
}
