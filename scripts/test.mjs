// `npm test`: lints (ESLint: the layer map of docs/design.md, no import cycles, typescript-eslint and
// react-hooks rules), builds the app twice (dist/; the browser tests drive dist-e2e/), starts a throwaway
// PostgreSQL when one is installed (so the Store contract suite runs on PGlite and on PostgreSQL),
// runs every vitest project, and ends with one line that says what it counted:
//
//   1307 passed, 0 failed (tests); 527 files lint-clean, 0 with lint errors
//
// "passed" counts tests only; "failed" counts failed tests plus files with lint errors (and a build
// that did not finish), so the line starts `N passed, N failed` and N failed is 0 only when all is well.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { postgresAvailable, startCluster } from './pg-cluster.mjs';

const extra = process.argv.slice(2);
const env = { ...process.env };
const clusters = [];
/** The browser run's cluster, when it has one of its own (see below). */
let browserDatabaseUrl = null;

mkdirSync('.tmp', { recursive: true });

// Two throwaway clusters when the browser run and the rest run side by side: one for the browser
// tests' servers, one for the rest. The change feed (S17) hands out a change only once every older
// transaction of the cluster has ended (pg_snapshot_xmin is the cluster's, server/store/feed-sql.ts),
// so on one shared cluster the browser tests' servers held back what the feed and engine tests read
// at once (three S17 tests failed in one whole run; with two rest workers on one cluster, an S16
// test). A second cluster costs about 2 CPU-s to start. TEST_DATABASE_URL (yours) is used for both.
if (!env.TEST_DATABASE_URL && postgresAvailable()) {
  try {
    const sideBySide = !extra.length && !env.TEST_SERIAL;
    for (let i = 0; i < (sideBySide ? 2 : 1); i++) clusters.push(await startCluster());
    env.TEST_DATABASE_URL = clusters[0].url;
    browserDatabaseUrl = clusters[1]?.url ?? null;
    console.log(`PostgreSQL test clusters: ${clusters.map((c) => c.url).join(', ')}`);
  } catch (err) {
    console.log(`PostgreSQL test cluster could not start (${err.message}); PostgreSQL variants will report it.`);
  }
}

// Three things side by side (issue #27.5):
// - ESLint (the layer map, ~25 s of CPU), its report read at the end;
// - the build, then the browser tests and the server-process tests, one file at a time
//   (E2E_WORKERS), each with its own server (and the worker's one Chromium);
// - everything else (unit, component, integration), which needs no build, one file at a time
//   (REST_WORKERS).
// The machine is busy throughout, so only less CPU shortens a run, and the two vitest runs should
// end together. The run took about 1,500 CPU-s (13:11) at first; now about 740-830 (430-460 s on
// the working copy, 7:00 on a fresh clone with its install). What took it there, each where it is
// done: files share their worker's modules (vitest.config.ts); new PGlite databases start from one
// migrated dump (test/support/pglite-template.ts); most servers run on PostgreSQL copies
// (test/support/test-databases.ts) as one bundled module, and operator commands as bundles too
// (scripts/build-server.mjs); a worker keeps one Chromium without the address-bar popup
// (test/support/processes.ts); a browser test loads a page only when loading is the point, shares
// a signed-in session where signing in is not its subject, asks for a one-pass, 1 MiB PIN and
// blocks the service worker unless it is the subject (test/e2e/harness.ts, docs/design.md "house
// style"); the app's build makes 31 files instead of 82 (vite.config.ts, 'shared').
// Where the CPU went (822 CPU-s sampled, before the last four): vitest processes ~290, Chromium
// ~360 (its renderers' main threads ~150), servers started as processes ~70, ESLint ~30,
// PostgreSQL ~25, builds ~15. The browser tests alone, one file at a time: 356 CPU-s (about 470
// before sessions were shared and the chunks grouped).
// Balance: five integration files that mostly wait on a process of their own (vitest.config.ts,
// project server-process) run in the browser run; the rest's run had been the long pole (471 s
// against 15 + 422), all seven server-process files overshot (15 + 473 against 433), and with the
// five both end within ~10 s (fresh clone: 380 s against 12 + 372 from their first test).
// More files at once did not help: with 3+2 and 2+2, three fresh-clone runs each failed 1-3 waits
// that ran out; with 1+2 the whole took 512 s against 517 on 995 CPU-s against 920, and three
// timing tests failed (the change feed waits for every transaction of the cluster,
// server/store/feed-sql.ts).
// The browser run streams its output; the other's is printed whole when it ends, so the two
// never interleave.
// `npm test -- <vitest args>` runs one vitest with those arguments instead (after lint and build);
// TEST_SERIAL=1 runs the vitest runs one after another.
//
// The new-version browser test (pwa-update) runs with the other browser tests. It once ran alone,
// last: inside the browser run its reload never came. The cause was the engine: until 350c1fb a
// 2xx answer during a sync cycle queued another cycle, so a refused create kept the engine cycling
// (20-35 API requests a second), and a waiting service worker activates only once the old one has
// no fetch in flight.
const browserRun = { name: 'browser tests and server processes', out: '.tmp/vitest-e2e.json', args: ['--project', 'e2e', '--project', 'server-process', `--maxWorkers=${env.E2E_WORKERS ?? 1}`], live: true, env: browserDatabaseUrl ? { TEST_DATABASE_URL: browserDatabaseUrl } : {} };
const restRun = { name: 'unit, component and integration tests', out: '.tmp/vitest-results.json', args: ['--project', 'unit', '--project', 'unit-isolated', '--project', 'component', '--project', 'component-isolated', '--project', 'integration', `--maxWorkers=${env.REST_WORKERS ?? 1}`], live: false };
const linting = runLint();
let results;
let buildFailed = false;
if (extra.length) {
  buildFailed = !(await build());
  results = buildFailed ? [] : [await runVitest({ name: 'vitest', out: '.tmp/vitest-results.json', args: extra, live: true })];
} else if (env.TEST_SERIAL) {
  buildFailed = !(await build());
  results = buildFailed ? [] : await runSerially([browserRun, restRun]);
} else {
  const built = build().then((ok) => {
    buildFailed = !ok;
    return ok;
  });
  const notBuilt = { passed: 0, failed: 0, status: 1 };
  const browser = built.then((ok) => (ok ? runVitest(browserRun) : notBuilt));
  results = await Promise.all([browser, runVitest(restRun)]);
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

async function runSerially(list) {
  const out = [];
  for (const run of list) out.push(await runVitest(run));
  return out;
}

/** One vitest run; its JSON report gives the counts. A run that failed without a count counts one. */
function runVitest(run) {
  rmSync(run.out, { force: true });
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${run.out}`, ...run.args];
  const t0 = Date.now();
  return new Promise((done) => {
    const child = spawn('npx', args, { stdio: run.live ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: { ...env, ...run.env } });
    const chunks = [];
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    child.on('close', (code) => {
      if (!run.live) process.stdout.write(`\n── ${run.name} ──\n${Buffer.concat(chunks).toString()}`);
      let passedHere = 0;
      let failedHere = 0;
      if (existsSync(run.out)) {
        const res = JSON.parse(readFileSync(run.out, 'utf8'));
        passedHere = res.numPassedTests ?? 0;
        failedHere = (res.numFailedTests ?? 0) + (res.numFailedTestSuites && !res.numFailedTests ? res.numFailedTestSuites : 0);
      }
      if (code !== 0 && failedHere === 0) failedHere = 1;
      console.log(`${run.name}: ${passedHere} passed, ${failedHere} failed in ${Math.round((Date.now() - t0) / 1000)} s`);
      done({ passed: passedHere, failed: failedHere, status: code ?? 1 });
    });
  });
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

/** ESLint over the repository; every problem is printed (when it ends), and each file counts once. */
function runLint() {
  const report = '.tmp/eslint-results.json';
  rmSync(report, { force: true });
  return new Promise((done) => {
    const l = spawn('npx', ['eslint', '.', '--format', 'json', '--output-file', report], { stdio: ['ignore', 'pipe', 'pipe'], env });
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
      console.log(`ESLint: ${files.length - failedFiles} of ${files.length} files clean.`);
      done({ passed: files.length - failedFiles, failed: failedFiles + (code !== 0 && failedFiles === 0 ? 1 : 0) });
    });
  });
}
