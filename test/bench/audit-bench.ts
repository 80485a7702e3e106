/**
 * `npm run bench:audit` (issue #26): what the audit trail costs.
 * 1. A 1,000-op push (1,000 participant creates as the tablet sends them: bulk POSTs of 100, each
 *    with X-Passage-Edit-Times) to the in-process server on PGlite, auditing on and off
 *    (createStore's bench-only `auditOff`), median of RUNS fresh databases each. Goal ≤ 1.15×.
 * 2. The Audit page's queries on 1,000,000 events on PostgreSQL (seeded with generate_series, 50
 *    people, 9 entities, 200,000 records, 19 actions over a year), newest first, 50 a page; median
 *    of 5 each, and the plan of each. Goal < 200 ms.
 * AUDIT_BENCH_EVENTS=<n> sizes part 2; AUDIT_BENCH_PART=1|2 runs one part.
 */
import { createApp } from '../../server/app';
import { createAccount } from '../../server/auth/accounts';
import { issueToken, secretKey } from '../../server/auth/tokens';
import { createStore } from '../../server/store/index';
import { openPostgres } from '../../server/store/pg-client';
import { createPostgresStore } from '../../server/store/postgres-store';
import { encodeEditTimes } from '../../shared/audit';
import { acquirePostgres, postgresInstalled } from '../integration/store/pg-test-cluster';

const APP = 'passage';
const SECRET = 'audit-bench-secret-0123456789abcdef0123';
const RUNS = Number(process.env.AUDIT_BENCH_RUNS ?? 5);
const EVENTS = Number(process.env.AUDIT_BENCH_EVENTS ?? 1_000_000);
const PART = process.env.AUDIT_BENCH_PART;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function pushOnce(auditOff: boolean): Promise<number> {
  const store = await createStore({ dataDir: 'memory://', auditOff });
  const app = createApp({ store, appId: APP, jwtSecret: SECRET, log: () => {} });
  const { user } = await createAccount(store, APP, { email: 'coach@example.org', role: 'user', verified: true, fields: { approved: true, requested_access_date: '2026-01-05' } });
  const token = await issueToken(secretKey(SECRET), user.id, APP, new Date());
  const started = performance.now();
  for (let batch = 0; batch < 10; batch++) {
    const body = Array.from({ length: 100 }, (_, i) => ({ first_name: `Queued${batch * 100 + i}`, last_name: 'Offline', client_ref: `ref-${batch}-${i}`, custody_status: 'in-custody' }));
    const times = body.map((_, i) => new Date(Date.UTC(2026, 10, 22, 8, 0, batch * 100 + i)).toISOString());
    const res = await app.request(`http://bench.test/api/apps/${APP}/entities/Participant/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'X-Passage-Edit-Times': encodeEditTimes(times) },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`push answered ${res.status}`);
  }
  const ms = performance.now() - started;
  const events = await store.countAudit(APP, { entity: 'Participant' });
  if (events !== (auditOff ? 0 : 1000)) throw new Error(`expected ${auditOff ? 0 : 1000} events, found ${events}`);
  await store.close();
  return ms;
}

async function pushPart() {
  const on: number[] = [];
  const off: number[] = [];
  await pushOnce(false); // warm up (JIT, WASM)
  for (let i = 0; i < RUNS; i++) {
    off.push(await pushOnce(true));
    on.push(await pushOnce(false));
  }
  const ratio = median(on) / median(off);
  console.log(`\n| 1,000-op push (10 bulk POSTs of 100, PGlite in-process) | median of ${RUNS} |\n|---|---:|`);
  console.log(`| auditing off | ${median(off).toFixed(0)} ms (runs ${off.map((x) => x.toFixed(0)).join(', ')}) |`);
  console.log(`| auditing on | ${median(on).toFixed(0)} ms (runs ${on.map((x) => x.toFixed(0)).join(', ')}) |`);
  console.log(`| on / off | ${ratio.toFixed(2)}× (goal ≤ 1.15×) |`);
}

async function indexPart() {
  if (!postgresInstalled) {
    console.log('PostgreSQL is not installed: part 2 skipped');
    return;
  }
  const pg = await acquirePostgres();
  const sql = openPostgres(pg.url, 2, 600_000, 600_000);
  const store = createPostgresStore(sql);
  await store.migrate();
  const app = `bench-${Date.now().toString(36)}`;
  const t0 = performance.now();
  // Plausible shapes: 50 people, 200,000 records of 9 entities, 19 actions (mostly updates), a year.
  await sql.query(
    `INSERT INTO audit_events (app, seq, id, created_date, data, prev_hash, hash)
     SELECT $1, g, lpad(to_hex(g), 24, '0'), d, jsonb_build_object(
              'id', lpad(to_hex(g), 24, '0'), 'seq', g, 'created_date', d, 'updated_date', d,
              'actor_id', 'user-' || (g % 50), 'actor_email', 'coach' || (g % 50) || '@example.org', 'device_id', 'tablet-' || (g % 80),
              'address', '10.0.0.' || (g % 200), 'client_time', NULL,
              'entity', (ARRAY['Participant','Enrollment','Attendance','Session','Cohort','Outcome','User','Program','Site'])[1 + (g * 7 % 9)],
              'record_id', 'rec-' || (g * 7919 % 200000),
              'action', (ARRAY['update','update','update','update','create','create','delete','enroll','unenroll','resolve_conflict','sign_in','sign_in_failed','lockout','password_change','password_reset','sign_up','approve','reject','export'])[1 + (g * 13 % 19)],
              'outcome', 'success', 'changes', jsonb_build_object('phone', jsonb_build_object('old', NULL, 'new', '555')), 'reason', NULL),
            '\\x00'::bytea, '\\x00'::bytea
       FROM generate_series(1, $2::bigint) AS g,
            LATERAL (SELECT to_char(timestamp '2025-11-22' + (g * interval '31.5 seconds') * (1000000.0 / $2), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS d) AS t`,
    [app, EVENTS],
  );
  await sql.query('ANALYZE audit_events');
  console.log(`\nseeded ${EVENTS.toLocaleString('en-US')} events in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const page = { sort: '-created_date', limit: 51 };
  const queries: Array<[string, Record<string, unknown> | undefined]> = [
    ['newest first, no filter', undefined],
    ['person (actor_email)', { actor_email: 'coach7@example.org' }],
    ['person (actor_id) + date range (one month)', { actor_id: 'user-7', created_date: { $gte: '2026-03-01', $lt: '2026-04-01' } }],
    ['entity', { entity: 'Participant' }],
    ['record (a participant’s history)', { entity: 'Participant', record_id: 'rec-4242' }],
    ['action (a rare one)', { action: 'lockout' }],
    ['action + person', { action: 'export', actor_email: 'coach7@example.org' }],
    ['date range (one day)', { created_date: { $gte: '2026-06-01', $lt: '2026-06-02' } }],
  ];
  console.log(`\n| Audit page query on ${EVENTS.toLocaleString('en-US')} events (PostgreSQL 15, 50 a page, newest first) | median of 5 | page 20 (skip 950) |\n|---|---:|---:|`);
  for (const [name, q] of queries) {
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t = performance.now();
      await store.listAudit(app, { ...page, q });
      if (i > 0) times.push(performance.now() - t);
    }
    const t = performance.now();
    await store.listAudit(app, { ...page, q, skip: 950 });
    console.log(`| ${name} | ${median(times).toFixed(1)} ms | ${(performance.now() - t).toFixed(1)} ms |`);
  }
  const plan = await sql.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN ANALYZE SELECT id FROM audit_events WHERE app = $1 AND (data->>'actor_email') = 'coach7@example.org' ORDER BY created_date DESC, id DESC LIMIT 51`,
    [app],
  );
  console.log(`\nplan of "person":\n${plan.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
  await sql.query(`DELETE FROM audit_heads WHERE false`);
  await sql.close();
  pg.release();
}

if (PART !== '2') await pushPart();
if (PART !== '1') await indexPart();
process.exit(0);
