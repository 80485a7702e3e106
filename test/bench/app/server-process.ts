/**
 * The real Passage server (server/main.ts) as a child process on a seeded data directory and a
 * free loopback port, serving the built dist/ — the bundle `npm start` and test/e2e/harness.ts run
 * (scripts/build-server.mjs), so the browser talks to exactly what `npm start` runs. DEMO=0: the
 * data set is already there.
 */
import { spawn } from 'node:child_process';
import { buildServer } from '../../../scripts/build-server.mjs';
import { freePort, stopChild } from '../../support/processes';

export interface ServerProcess {
  baseUrl: string;
  log(): string;
  stop(): Promise<void>;
}



/** Start-up is PGlite opening a 70,000-row directory: ~5 s idle, far more on a busy box. */
const START_TIMEOUT_MS = 120_000;

/** `serveRoot` is the server's working directory: it serves serveRoot/dist (see dist-check.ts). */
export async function startServer(serveRoot: string, dataDir: string, appId: string): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [await buildServer()], {
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
