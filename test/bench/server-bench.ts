/**
 * `npm run bench:server`: seeds 10,000 participants and 30,000 enrollments, then measures list,
 * filter, incremental pull, get, create and update through the HTTP app on embedded PGlite and on
 * PostgreSQL (a throwaway cluster, or BENCH_DATABASE_URL), plus the equality filter with and
 * without the GIN index, and issue #25.4's searches over 20,000 participants (BENCH_ONLY=regex: only
 * those). Prints one table. BENCH_CONCURRENCY (default 4) requests run at a time.
 */
import { randomUUID } from 'node:crypto';
import { type Backend, pgliteBackend, postgresBackend } from './server/backends';
import { runHttpScenarios } from './server/http-scenarios';
import { ginComparison } from './server/index-check';
import { type Measurement, formatTable } from './server/measure';
import { runRegexScenarios } from './server/regex-scenarios';
import { PARTICIPANTS, seedBenchData } from './server/seed';

const concurrency = Number(process.env.BENCH_CONCURRENCY || 4);
const rows: Array<Measurement & { backend: string }> = [];

async function bench(open: () => Promise<Backend | null>, label: string) {
  const t0 = performance.now();
  const backend = await open();
  if (!backend) {
    console.log(`${label}: skipped (PostgreSQL is not installed and BENCH_DATABASE_URL is not set)`);
    return;
  }
  try {
    const opened = performance.now();
    const app = `bench-${randomUUID().slice(0, 8)}`;
    const data = await seedBenchData(backend.store, app);
    // Fresh planner statistics, as autovacuum would gather them on a live server.
    await backend.sql.query('ANALYZE records');
    console.log(`${backend.name}: opened in ${((opened - t0) / 1000).toFixed(1)} s, seeded 40,040 records in ${((performance.now() - opened) / 1000).toFixed(1)} s`);
    if (process.env.BENCH_ONLY !== 'regex') {
      for (const m of await runHttpScenarios(backend.store, app, data, { concurrency })) rows.push({ ...m, backend: backend.name });
      const gin = await ginComparison(backend.store, backend.sql, app, data);
      for (const m of gin.rows) rows.push({ ...m, backend: backend.name });
      console.log(`${backend.name} plan for an equality filter:\n  ${gin.plan.split('\n').join('\n  ')}`);
    }
    // Issue #25.4 (BENCH_ONLY=regex runs only these): 20,000 participants in all.
    for (const m of await runRegexScenarios(backend.store, app, 20_000 - PARTICIPANTS)) rows.push({ ...m, backend: backend.name });
  } finally {
    await backend.dispose();
  }
}

const started = performance.now();
await bench(pgliteBackend, 'PGlite');
await bench(postgresBackend, 'PostgreSQL');
console.log(`\nHTTP app in-process, concurrency ${concurrency}; store-only rows at concurrency 1.\n`);
console.log(formatTable(rows));
console.log(`\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s`);
