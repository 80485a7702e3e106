/**
 * What the browser tests, the main-process test and the bench share: Debian's Chromium with the
 * flags this closed network needs (without the background-networking ones Chromium floods refused
 * connections), a free loopback port, stopping a child process (SIGTERM, SIGKILL after 10 s), and
 * the server as a real process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { buildCommand, buildServer, type CommandName } from '../../scripts/build-server.mjs';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * The features Playwright turns off (playwright-core 1.65, server/chromium/chromiumSwitches.ts).
 * Chromium keeps the last value of a switch, so a second --disable-features replaces Playwright's
 * whole list: CHROMIUM_ARGS repeats it. test/unit/support/chromium-args.test.ts fails when a new
 * playwright-core's list names one this does not.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's suggestion popup. Chromium 156 builds it as a WebUI page (omnibox_popup_aim.html)
 * and loads it, in a renderer of its own, into every new window: every page a test opens. A traced
 * sign-in spent 480 ms of CPU on it; ten sign-ins in a row, each opening the Participants page,
 * took 4.4 CPU-s each without it instead of 5.4 (issue #27.5). Passage runs as an installed app on
 * the tablets, without an address bar.
 */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];

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

export function stopChild(child: ChildProcess): Promise<void> {
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

/**
 * What every server a test starts runs with besides its port and data: reads may take 20 s (the
 * default 3 s is a production server's bound). On 2 full cores a 5,000-row change-feed page and a
 * start-up read on PostgreSQL each once ran past 3 s (503 QUERY_TIMEOUT, a server that exited).
 * A read that never ends still fails.
 */
export const TEST_SERVER_ENV = { READ_TIMEOUT_MS: '20000' } as const;

const ROOT = resolve(import.meta.dirname, '../..');

/** This process's build of the server bundle (startServerProcess). */
let bundled: Promise<string> | null = null;
const commands = new Map<CommandName, Promise<string>>();

/**
 * The bundle `npm run <command>` runs (scripts/command.mjs), built once per test process: a test
 * spawns `node <bundle> <arguments>` as the operator's command does. Under tsx each run spent
 * 0.4-0.6 CPU-s more before its own work (issue #27.5).
 */
export function operatorCommand(name: CommandName): Promise<string> {
  let built = commands.get(name);
  if (!built) commands.set(name, (built = buildCommand(name)));
  return built;
}

/**
 * The server as a real process, as `npm start` runs it: the bundle of server/main.ts
 * (scripts/build-server.mjs, built once per test process, so it is never older than the sources),
 * resolved once it prints its start-up line ('Passage is running at …'; only this child's output
 * counts, so another server answering on the port meanwhile is never taken for it). It runs with
 * TEST_SERVER_ENV, then `env`, over this process's environment, in `cwd` (default: the repository,
 * whose dist/ it serves; a test that deploys its own build gives a folder of its own). Start-up is
 * node + PGlite + seeding: about 0.5 CPU-second on a copy of test-databases.ts's template (1.3 under
 * tsx), 25 s measured on 2 cores under a load average of 14; 90 s (`startTimeoutMs`) leaves room.
 * A server that exits first or prints no start-up line in time is stopped, and the error carries
 * its output (EADDRINUSE, say). The one way every test and bench starts a server: the browser harness,
 * offline-world's own server, the integration tests of the real process and the app bench.
 */
export async function startServerProcess(
  env: Record<string, string>,
  { cwd = ROOT, startTimeoutMs = 90_000 }: { cwd?: string; startTimeoutMs?: number } = {},
): Promise<{ child: ChildProcess; output: () => string }> {
  let out = '';
  bundled ??= buildServer();
  const child = spawn(process.execPath, [await bundled], {
    cwd,
    env: { ...process.env, ...TEST_SERVER_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + startTimeoutMs;
  while (!out.includes('Passage is running at')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The Passage server exited early (${child.exitCode ?? child.signalCode}):\n${out}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`The Passage server printed no start-up line within ${startTimeoutMs / 1000} s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out };
}
