/**
 * `npx tsx test/bench/duplicates-lookup.ts`: issue #23.7's intake look-up alone, in Node (V8, the
 * engine Chromium runs), over the bench's seeded 10,000 participants (test/bench/app/dataset.ts,
 * the same seed as `npm run bench`). It prints what AddParticipant's keystroke costs the tablet
 * before React renders: indexing the list (once per data change) and one look-up per keystroke,
 * over the keystrokes the bench row types (duplicates-plan.ts). CPU 4× is estimated as 4× these
 * times; the measured 4× row is `BENCH_ONLY=duplicates npx tsx test/bench/run-bench.ts`.
 */
import { createRng } from '../../server/demo/random';
import { findDuplicates, indexForDuplicates, type DuplicateCandidate } from '../../src/domain/duplicate-candidates';
import { buildCohorts, buildParticipants, buildPrograms, buildSites } from './app/dataset';
import { planDuplicateKeystrokes } from './app/duplicates-plan';

const rng = createRng(2026);
const now = new Date();
// The cohorts draw from the generator before the participants do, as in the seed.
const ids = (rows: Record<string, unknown>[], p: string) => rows.map((r, i) => ({ ...r, id: `${p}${i}` }));
buildCohorts(rng, now, ids(buildPrograms(), 'pr'), ids(buildSites(), 's'));
const people = ids(buildParticipants(rng, now), 'p') as unknown as DuplicateCandidate[];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];

const indexRuns: number[] = [];
let index = indexForDuplicates(people);
for (let i = 0; i < 10; i++) {
  const t0 = performance.now();
  index = indexForDuplicates(people);
  indexRuns.push(performance.now() - t0);
}

const targets = planDuplicateKeystrokes(people, 20);
const keys: number[] = [];
for (let round = 0; round < 20; round++) {
  for (const target of targets) {
    let last = '';
    for (const step of target.steps) {
      last = step.key === 'Backspace' ? last.slice(0, -1) : last + step.key;
      const t0 = performance.now();
      const found = findDuplicates(index, { first_name: target.first_name, last_name: last, date_of_birth: target.date_of_birth });
      keys.push(performance.now() - t0);
      if (found.length !== step.expected) throw new Error('plan and look-up disagree');
    }
  }
}
const steps = targets.reduce((n, t) => n + t.steps.length, 0);
console.log(`${people.length} participants; ${targets.length} targets, ${steps} keystrokes (${targets.flatMap((t) => t.steps).filter((s) => s.timed).length} change the panel)`);
console.log(`index (once per data change): median ${median(indexRuns).toFixed(2)} ms, ×4 ≈ ${(4 * median(indexRuns)).toFixed(1)} ms`);
console.log(`look-up per keystroke: median ${(median(keys) * 1000).toFixed(1)} µs, p95 ${(p95(keys) * 1000).toFixed(1)} µs, ×4 ≈ ${(4 * p95(keys) * 1000).toFixed(1)} µs (goal: keystroke → panel ≤ 100 ms at 4×)`);
