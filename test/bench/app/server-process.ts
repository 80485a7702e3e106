/**
 * The real Passage server (server/main.ts) as a child process on a seeded data directory and a
 * free loopback port, serving the built dist/ — the same way test/e2e/harness.ts starts it, so the
 * browser talks to exactly what `npm start` runs. DEMO=0: the data set is already there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface ServerProcess {
  baseUrl: string;
  log(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => res(port));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      res();
    });
    child.kill('SIGTERM');
  });
}

/** Start-up is tsx compile + PGlite opening a 70,000-row directory: ~5 s idle, far more on a busy box. */
const START_TIMEOUT_MS = 120_000;

/** `serveRoot` is the server's working directory: it serves serveRoot/dist (see dist-check.ts). */
export async function startServer(root: string, serveRoot: string, dataDir: string, appId: string): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'server/main.ts')], {
    cwd: serveRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', APP_ID: appId, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Passage server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`Passage server did not answer within ${START_TIMEOUT_MS} ms:\n${output}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/apps/public/prod/public-settings/by-id/${appId}`);
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, log: () => output, stop: () => stopChild(child) };
}
