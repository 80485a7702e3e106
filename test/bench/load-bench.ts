/**
 * `npm run bench:load`: the server as an operator runs it (server/main.ts as real processes, demo
 * data) under LOAD_CLIENTS (50) clients for LOAD_SECONDS (20 s) each, on embedded PGlite, on one
 * PostgreSQL instance and on two instances sharing one PostgreSQL (clients split between them, as a
 * proxy would). Each client is a closed loop, one request at a time, no pause: 55 % participant
 * list pages (50, newest first), 20 % counts, 15 % single reads, 7 % updates, 3 % creates; all as
 * the demo administrator (one sign-in per instance, the token shared). Prints requests/s, p50, p95,
 * p99 and errors (any answer that is not 2xx, or a failed connection) per setup.
 * LOAD_WRITES=0 sends reads only (the updates and creates become single reads), to tell the cost of
 * writes apart; LOAD_ONLY=postgres skips PGlite.
 *
 * The load generator runs on the same machine as the servers (and PostgreSQL), so on 2 cores the
 * numbers are a floor: the clients take CPU the servers would have.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServerProcess, stopChild } from '../support/processes';
// @ts-expect-error scripts/pg-cluster.mjs is plain JavaScript without type declarations
import { postgresAvailable, startCluster } from '../../scripts/pg-cluster.mjs';

const CLIENTS = Number(process.env.LOAD_CLIENTS || 50);
const SECONDS = Number(process.env.LOAD_SECONDS || 20);
const APP = 'passage';
const SECRET = 'load-bench-secret-0123456789abcdef0123456789';
const WRITES = process.env.LOAD_WRITES !== '0';
const ONLY_POSTGRES = process.env.LOAD_ONLY === 'postgres';

interface Row {
  setup: string;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  firstErrors: string[];
}

/** A tiny deterministic generator, so every run sends the same mix. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/apps/${APP}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.org', password: 'demo-pass-2026' }),
  });
  if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function run(setup: string, bases: string[]): Promise<Row> {
  const tokens = await Promise.all(bases.map(signIn));
  const api = (i: number) => `${bases[i % bases.length]}/api/apps/${APP}/entities/Participant`;
  const auth = (i: number) => ({ authorization: `Bearer ${tokens[i % bases.length]}` });
  const ids = ((await (await fetch(`${api(0)}?limit=40`, { headers: auth(0) })).json()) as Array<{ id: string }>).map((p) => p.id);
  const times: number[] = [];
  let errors = 0;
  const firstErrors: string[] = [];
  const fail = (what: string) => {
    errors++;
    if (firstErrors.length < 5) firstErrors.push(what);
  };
  const deadline = performance.now() + SECONDS * 1000;

  const client = async (n: number) => {
    const random = rng(n + 1);
    while (performance.now() < deadline) {
      const r = random();
      const id = ids[Math.floor(random() * ids.length)];
      let url = api(n);
      let init: RequestInit = { headers: auth(n) };
      if (r < 0.55) url += '?limit=50&sort=-updated_date';
      else if (r < 0.75) url += '/count';
      else if (r < 0.9 || !WRITES) url += `/${id}`;
      else if (r < 0.97) {
        url += `/${id}`;
        init = { method: 'PUT', headers: { ...auth(n), 'content-type': 'application/json' }, body: JSON.stringify({ phone: `(510) 555-${String(Math.floor(random() * 10_000)).padStart(4, '0')}` }) };
      } else {
        const tag = Math.floor(random() * 1e9).toString(36);
        init = { method: 'POST', headers: { ...auth(n), 'content-type': 'application/json' }, body: JSON.stringify({ first_name: `Load${tag}`, last_name: `Client${n}x${tag}` }) };
      }
      const t0 = performance.now();
      try {
        const res = await fetch(url, init);
        await res.arrayBuffer();
        if (!res.ok) fail(`${init.method ?? 'GET'} ${res.status}`);
      } catch (err) {
        fail(String((err as Error).cause ?? err));
      }
      times.push(performance.now() - t0);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
  const elapsed = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { setup, requests: times.length, perSecond: times.length / elapsed, p50: at(0.5), p95: at(0.95), p99: at(0.99), errors, firstErrors };
}

async function boot(env: Record<string, string>) {
  const port = await freePort();
  const proc = await startServerProcess({ PORT: String(port), HOST: '127.0.0.1', APP_ID: APP, DEMO: '1', JWT_SECRET: SECRET, TRUST_PROXY: '', LOG_FORMAT: 'json', ...env });
  return { base: `http://127.0.0.1:${port}`, proc };
}

const rows: Row[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'passage-load-'));
try {
  if (!ONLY_POSTGRES) {
    const a = await boot({ DATA_DIR: join(scratch, 'pglite'), DATABASE_URL: '' });
    try {
      rows.push(await run('PGlite, 1 instance', [a.base]));
    } finally {
      await stopChild(a.proc.child);
    }
  }
  if (postgresAvailable()) {
    const cluster = (await startCluster()) as { url: string; stop: () => void };
    try {
      const a = await boot({ DATA_DIR: join(scratch, 'pg-a'), DATABASE_URL: cluster.url });
      try {
        rows.push(await run('PostgreSQL, 1 instance', [a.base]));
        const b = await boot({ DATA_DIR: join(scratch, 'pg-b'), DATABASE_URL: cluster.url, DEMO: '0' });
        try {
          rows.push(await run('PostgreSQL, 2 instances', [a.base, b.base]));
        } finally {
          await stopChild(b.proc.child);
        }
      } finally {
        await stopChild(a.proc.child);
      }
    } finally {
      cluster.stop();
    }
  } else console.log('PostgreSQL: skipped (not installed)');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

console.log(`\n${CLIENTS} clients, ${SECONDS} s each, ${WRITES ? '10 % writes' : 'reads only'}, server processes on this machine\n`);
console.log('| Setup | Requests | Requests/s | p50 ms | p95 ms | p99 ms | Errors |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.setup} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.errors} |`);
}
for (const r of rows) if (r.firstErrors.length) console.log(`${r.setup}: first errors: ${r.firstErrors.join('; ')}`);
