// One lane of `npm test` (scripts/test.mjs starts two, side by side): one Vitest, one test file at
// a time. It runs its own projects' files first, then asks the parent for batches of integration
// files until none are left, so whichever lane is free takes the next ones and the two end together
// whatever the machine (issue #27.5; the parent's sharedFiles says which batches). One Vitest for
// the whole lane: each project's global setup (the PGlite dump, the PostgreSQL templates) runs
// once, and the files of one batch share their worker's modules (vitest.config.ts).
//
//   node scripts/test-lane.mjs '{"name":"…","own":["unit",…],"shared":["integration"],"out":".tmp/…json"}'
//
// The parent answers { files: [...] } to each { want: true }; an empty list ends the lane, which
// then sends { passed, failed, files } and exits. It prints what Vitest's default reporter prints,
// once per batch.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createVitest } from 'vitest/node';

const lane = JSON.parse(process.argv[2]);
const started = Date.now();

const vitest = await createVitest('test', {
  watch: false,
  project: [...lane.own, ...lane.shared],
  maxWorkers: lane.maxWorkers ?? 1,
  reporters: ['default'],
});
await vitest.standalone();
const specs = await vitest.globTestSpecifications();
const own = specs.filter((s) => lane.own.includes(s.project.name));
const sharedByFile = new Map(specs.filter((s) => lane.shared.includes(s.project.name)).map((s) => [relative(process.cwd(), s.moduleId), s]));

let passed = 0;
let failed = 0;
/** Each file this lane ran: its seconds (the parent keeps them for the next run's order) and outcome. */
const files = [];

async function run(list) {
  if (!list.length) return;
  const { testModules, unhandledErrors } = await vitest.runTestSpecifications(list);
  // What Vitest returns holds every file this Vitest ran so far, earlier batches too.
  const ran = new Set(list.map((s) => s.moduleId));
  for (const module of testModules.filter((m) => ran.has(m.moduleId))) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed') failedHere++;
    }
    // A file that failed outside its tests (an import, a hook) counts once.
    if (!failedHere && module.state() === 'failed') failedHere = 1;
    failed += failedHere;
    files.push({ file: relative(process.cwd(), module.moduleId), seconds: (module.diagnostic().duration ?? 0) / 1000, failed: failedHere });
  }
  failed += unhandledErrors.length;
}

/** The next batch of shared files from the parent; empty when none are left. */
function ask() {
  return new Promise((resolve) => {
    process.once('message', (m) => resolve(m.files));
    process.send({ want: true });
  });
}

try {
  await run(own);
  for (let batch = await ask(); batch.length; batch = await ask()) {
    const unknown = batch.filter((f) => !sharedByFile.has(f));
    if (unknown.length) throw new Error(`test-lane: not an integration test file: ${unknown.join(', ')}`);
    await run(batch.map((f) => sharedByFile.get(f)));
  }
} catch (err) {
  console.error(err);
  failed++;
} finally {
  await vitest.close();
}
if (lane.out) writeFileSync(lane.out, JSON.stringify({ name: lane.name, seconds: (Date.now() - started) / 1000, passed, failed, files }, null, 1));
process.send({ passed, failed, files }, () => process.exit(failed ? 1 : 0));
