// `npm test`: lints (ESLint: the layer map of design.md, no import cycles, typescript-eslint and
// react-hooks rules), builds the app (the browser tests drive the built PWA), starts a throwaway
// PostgreSQL when one is installed (so the Store contract suite runs on PGlite and on PostgreSQL),
// runs every vitest project, and ends with one line `N passed, N failed` summed over everything it
// ran. Lint counts one passed per clean file and one failed per file with an error.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { postgresAvailable, startCluster } from './pg-cluster.mjs';

const extra = process.argv.slice(2);
const env = { ...process.env };
let cluster = null;

mkdirSync('.tmp', { recursive: true });
const lint = runLint();

if (!env.SKIP_BUILD) {
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit', env });
  if (b.status !== 0) {
    console.log(`${lint.passed} passed, ${lint.failed + 1} failed`);
    process.exit(1);
  }
}

if (!env.TEST_DATABASE_URL && postgresAvailable()) {
  try {
    cluster = await startCluster();
    env.TEST_DATABASE_URL = cluster.url;
    console.log(`PostgreSQL test cluster: ${cluster.url}`);
  } catch (err) {
    console.log(`PostgreSQL test cluster could not start (${err.message}); PostgreSQL variants will report it.`);
  }
}

const out = '.tmp/vitest-results.json';
const r = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra], {
  stdio: 'inherit',
  env,
});
cluster?.stop();

let passed = 0;
let failed = 0;
if (existsSync(out)) {
  const res = JSON.parse(readFileSync(out, 'utf8'));
  passed = res.numPassedTests ?? 0;
  failed = (res.numFailedTests ?? 0) + (res.numFailedTestSuites && !res.numFailedTests ? res.numFailedTestSuites : 0);
}
if (r.status !== 0 && failed === 0) failed = 1;
console.log(`${passed + lint.passed} passed, ${failed + lint.failed} failed`);
process.exit(r.status === 0 && lint.failed === 0 ? 0 : (r.status || 1));

/** ESLint over the repository; every problem is printed, and each file counts once. */
function runLint() {
  const report = '.tmp/eslint-results.json';
  rmSync(report, { force: true });
  const l = spawnSync('npx', ['eslint', '.', '--format', 'json', '--output-file', report], { stdio: 'inherit', env });
  if (!existsSync(report)) {
    console.log(`ESLint did not run (exit ${l.status}).`);
    return { passed: 0, failed: 1 };
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
  return { passed: files.length - failedFiles, failed: failedFiles + (l.status !== 0 && failedFiles === 0 ? 1 : 0) };
}
