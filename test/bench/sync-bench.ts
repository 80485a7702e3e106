/**
 * `npm run bench:sync`: the sync engine end to end in Node — fake-indexeddb for the mirror, the real
 * server in-process (createApp + in-memory PGlite) — so the numbers show the engine's own cost and
 * request counts, not a browser's or a network's. Prints a table; BENCH_SYNC_SCALE=0.1 for a quick run.
 */
import 'fake-indexeddb/auto';
import { PassageDB } from '../../src/data/db';
import { createDataContext } from '../../src/data/context';
import { SyncEngine } from '../../src/data/sync/engine';
import { createPlatformTransport } from '../../src/data/sync/platform-transport';
import { createParticipant, updateParticipant } from '../../src/data/commands/participants';
import { startBenchServer, seed } from './sync/counting-server';

const SCALE = Number(process.env.BENCH_SYNC_SCALE ?? 1);
const N = { participants: Math.round(10_000 * SCALE), cohorts: Math.round(500 * SCALE), enrollments: Math.round(20_000 * SCALE) };
const QUEUED = Math.round(1_000 * SCALE);
const EDITS = Math.round(200 * SCALE);

interface Row {
  step: string;
  ms: number;
  requests: number;
  note: string;
}
const rows: Row[] = [];

async function main() {
  const server = await startBenchServer();
  const t = performance.now();
  await seed(server.store, N);
  console.log(`seeded ${N.participants} participants, ${N.cohorts} cohorts, ${N.enrollments} enrollments in ${Math.round(performance.now() - t)} ms`);

  const db = new PassageDB(`bench-${process.pid}`);
  const clock = { now: () => Date.now(), setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout) };
  const engine = new SyncEngine({ db, transport: createPlatformTransport(server.coachClient, server.coachId), clock, userId: server.coachId, random: Math.random });
  // No automatic triggers during measurements: each step runs one cycle by hand.
  engine.setVisible(false);
  // The coach's device: commands queue on it; no nudges (each step runs its cycle by hand).
  const data = createDataContext({ db, userId: server.coachId });

  const measure = async (step: string, work: () => Promise<string>) => {
    const before = server.requests.count;
    const start = performance.now();
    const note = await work();
    rows.push({ step, ms: Math.round(performance.now() - start), requests: server.requests.count - before, note });
  };

  await measure('first sync (empty device)', async () => {
    await engine.start();
    await engine.idle();
    return `${await db.participants.count()} participants, ${await db.enrollments.count()} enrollments, ${await db.cohorts.count()} cohorts in the mirror`;
  });
  await measure('idle cycle (nothing changed)', async () => {
    await engine.runOnce();
    return 'pull of 8 entities, overlap window only';
  });
  await measure(`incremental pull (${EDITS} changed on server)`, async () => {
    const ids = (await db.participants.limit(EDITS).primaryKeys()) as string[];
    for (const id of ids) await server.adminClient.entities('Participant').update(id, { case_manager: 'Changed' });
    const before = server.requests.count;
    const start = performance.now();
    await engine.runOnce();
    const pulled = await db.participants.where('id').anyOf(ids).filter((p) => p.case_manager === 'Changed').count();
    rows.push({ step: '  (of which the sync cycle)', ms: Math.round(performance.now() - start), requests: server.requests.count - before, note: `${pulled}/${EDITS} updated rows in the mirror` });
    return `includes ${EDITS} admin PUTs to make the changes`;
  });

  let commandMs = 0;
  await measure(`queue ${QUEUED} creates offline`, async () => {
    const start = performance.now();
    for (let i = 0; i < QUEUED; i++) await createParticipant(data, { first_name: `Queued${i}`, last_name: 'Offline' });
    commandMs = (performance.now() - start) / QUEUED;
    return `${commandMs.toFixed(2)} ms per command (row + outbox op, one transaction)`;
  });
  await measure(`push ${QUEUED} creates`, async () => {
    await engine.runOnce();
    return `${await db.outbox.count()} ops left; bulkCreate in batches of 100`;
  });
  await measure(`push ${EDITS} field edits`, async () => {
    const ids = (await db.participants.limit(EDITS).primaryKeys()) as string[];
    for (const id of ids) await updateParticipant(data, id, { phone: '555-0199' });
    const before = server.requests.count;
    const start = performance.now();
    await engine.runOnce();
    rows.push({ step: '  (of which the sync cycle)', ms: Math.round(performance.now() - start), requests: server.requests.count - before, note: `${await db.outbox.count()} ops left` });
    return 'edits queued, then one cycle: one $in fetch and one bulk PUT per 100';
  });

  await engine.stop();
  await server.close();
  console.log('\n| step | ms | requests | note |\n|---|---:|---:|---|');
  for (const r of rows) console.log(`| ${r.step} | ${r.ms} | ${r.requests} | ${r.note} |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
