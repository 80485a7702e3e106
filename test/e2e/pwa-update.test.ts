import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD } from './harness';
import { eventually, outbox, serverRows, serviceWorkerReady, toast, tokenOf } from './offline-world';

/**
 * Issue #5.3: a new build deployed while Passage is open. The server runs from a deploy folder of
 * its own (a copy of dist/), so the test can publish a new version without touching the dist/
 * other browser tests use. The coach has a change that has not reached the server; the new
 * version prompts 'New version available'; Reload switches to it; the change is still queued and
 * then reaches the server exactly once.
 */
const ROOT = resolve(import.meta.dirname, '../..');
let deployDir = '';
let baseUrl = '';
let server: ChildProcess | null = null;
let browser: Browser | null = null;
let log = '';

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => res(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

beforeAll(async () => {
  deployDir = mkdtempSync(join(tmpdir(), 'passage-deploy-'));
  cpSync(join(ROOT, 'dist'), join(deployDir, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(deployDir, 'node_modules'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // cwd is the deploy folder: the server serves ./dist from there.
  server = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/main.ts')], {
    cwd: deployDir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(deployDir, 'data'), DEMO: '1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (log += d));
  server.stderr?.on('data', (d) => (log += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${log}`);
    const ok = await fetch(`${baseUrl}/api/apps/public/prod/public-settings/by-id/passage`).then((r) => r.status < 500, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'] });
});

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  rmSync(deployDir, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/login?from_url=${encodeURIComponent(`${baseUrl}/`)}`);
  await page.getByLabel('Email').fill(DEMO.coach);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === baseUrl && !url.pathname.startsWith('/login') && !url.search.includes('access_token'));
  await page.locator('[data-app-ready]').first().waitFor({ timeout: 30_000 });
}

/**
 * Publishes "the next build": index.html changes, so its precache revision in sw.js changes, so
 * the browser sees a new service worker, exactly as a real deploy does.
 */
function deployNewBuild(): void {
  const dist = join(deployDir, 'dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8').replace('<head>', '<head><meta name="passage-build" content="2">');
  writeFileSync(join(dist, 'index.html'), html);
  const revision = createHash('md5').update(html).digest('hex');
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
  const next = sw.replace(/\{url:"index\.html",revision:"[0-9a-f]+"\}/, `{url:"index.html",revision:"${revision}"}`);
  if (next === sw) throw new Error('index.html is not in the precache manifest of sw.js');
  writeFileSync(join(dist, 'sw.js'), next);
}

describe('a new version while the app is open (issue #5.3)', () => {
  it("prompts 'New version available'; Reload switches to it and the unsent change survives", async () => {
    const context = await browser!.newContext({ baseURL: baseUrl });
    const page = await context.newPage();
    await signIn(page);
    await serviceWorkerReady(page);

    // Creates cannot reach the server for now (the request fails as on a dead network).
    await context.route('**/api/apps/passage/entities/Participant**', (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    const last = `Update-${Date.now().toString(36)}`;
    await page.goto(`${baseUrl}/addparticipant`);
    await page.getByLabel('First Name *', { exact: true }).fill('Imani');
    await page.getByLabel('Last Name *', { exact: true }).fill(last);
    await page.getByRole('button', { name: 'Add Participant' }).click();
    await toast(page, 'Participant added successfully!');
    expect((await outbox(page)).map((o) => `${o.entity} ${o.kind}`)).toEqual(['Participant create']);

    deployNewBuild();
    // The hourly check (src/pwa/update-flow.ts), run now.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await toast(page, 'New version available');
    expect(await page.locator('meta[name="passage-build"]').count()).toBe(0);

    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await page.locator('[data-app-ready]').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('meta[name="passage-build"]').getAttribute('content')).toBe('2');
    expect(await page.getByText('New version available').count()).toBe(0);

    // The change made before the reload is still queued, then reaches the server once.
    expect((await outbox(page)).map((o) => `${o.entity} ${o.kind}`)).toEqual(['Participant create']);
    await context.unroute('**/api/apps/passage/entities/Participant**');
    const token = await tokenOf(page);
    // The network 'comes back' (an S9 trigger) rather than waiting out the engine's backoff.
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await eventually(async () => (await outbox(page)).length).toBe(0);
    expect(await serverRows(baseUrl, token, 'Participant', { last_name: last })).toHaveLength(1);
    await context.close();
  });
});
