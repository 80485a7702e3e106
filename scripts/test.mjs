// `npm test`: builds the app (the browser tests drive the built PWA), starts a throwaway PostgreSQL
// when one is installed (so the Store contract suite runs on PGlite and on PostgreSQL), runs every
// vitest project, and ends with one line `N passed, N failed` summed over everything it ran.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { postgresAvailable, startCluster } from './pg-cluster.mjs';

const extra = process.argv.slice(2);
const env = { ...process.env };
let cluster = null;

if (!env.SKIP_BUILD) {
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit', env });
  if (b.status !== 0) {
    console.log('0 passed, 1 failed');
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

mkdirSync('.tmp', { recursive: true });
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
console.log(`${passed} passed, ${failed} failed`);
process.exit(r.status ?? 1);
