// A throwaway PostgreSQL 15 cluster for tests: initdb in a temp folder, listen on loopback only,
// removed on stop. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';

const BIN = '/usr/lib/postgresql/15/bin';

export function postgresAvailable() {
  return existsSync(join(BIN, 'initdb')) && existsSync(join(BIN, 'pg_ctl'));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function asPg(args) {
  const root = process.getuid && process.getuid() === 0;
  return root ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0], args.slice(1)];
}

function run(args) {
  const [cmd, rest] = asPg(args);
  const r = spawnSync(cmd, rest, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** run() without blocking the caller: `npm test` starts its two clusters side by side, beside ESLint and the build. */
function runAsync(args) {
  const [cmd, rest] = asPg(args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} failed: ${out}`))));
  });
}

/** Starts a cluster; resolves to { url, stop, halt, resume }. */
export async function startCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'passage-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  if (process.getuid && process.getuid() === 0) spawnSync('chown', ['-R', 'postgres', dir]);
  await runAsync([join(BIN, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const startArgs = [
    join(BIN, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-w', '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
    'start',
  ];
  const start = () => run(startArgs);
  await runAsync(startArgs);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try { run([join(BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']); } catch { /* already gone */ }
    rmSync(dir, { recursive: true, force: true });
  };
  // An outage and its end (issue #25's operator test): `halt` stops the server (fast: sessions are
  // ended), `resume` starts it again on the same port and data.
  const halt = () => run([join(BIN, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop']);
  const resume = () => start();
  return { url, stop, halt, resume };
}

// `node scripts/pg-cluster.mjs` starts one and prints its URL until Ctrl+C (handy for manual runs).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { url, stop } = await startCluster();
  console.log(url);
  const bye = () => { stop(); process.exit(0); };
  process.on('SIGINT', bye);
  process.on('SIGTERM', bye);
  setInterval(() => {}, 1 << 30);
}
