/**
 * The real Passage server (server/main.ts) as a child process on a seeded data directory and a
 * free loopback port, serving the built dist/ — the bundle `npm start` and test/e2e/harness.ts run
 * (scripts/build-server.mjs), started by test/support/processes.ts startServerProcess, so the
 * browser talks to exactly what `npm start` runs. DEMO=0: the data set is already there.
 */
import { freePort, startServerProcess, stopChild } from '../../support/processes';

export interface ServerProcess {
  baseUrl: string;
  log(): string;
  stop(): Promise<void>;
}

/** Start-up is PGlite opening a 70,000-row directory: ~5 s idle, far more on a busy box. */
const START_TIMEOUT_MS = 120_000;

/**
 * `serveRoot` is the server's working directory: it serves serveRoot/dist (see dist-check.ts).
 * READ_TIMEOUT_MS is the production default (3 s), not the tests' 20 s: the bench measures what
 * a deployment serves.
 */
export async function startServer(serveRoot: string, dataDir: string, appId: string): Promise<ServerProcess> {
  const port = await freePort();
  const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', APP_ID: appId, NODE_ENV: 'production', READ_TIMEOUT_MS: '3000' };
  const { child, output } = await startServerProcess(env, { cwd: serveRoot, startTimeoutMs: START_TIMEOUT_MS });
  return { baseUrl: `http://127.0.0.1:${port}`, log: output, stop: () => stopChild(child) };
}
