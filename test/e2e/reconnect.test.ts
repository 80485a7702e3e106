import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/processes';
import { DEMO, setupHarness, passDeviceLock } from './harness';
import { addParticipant, eventually, outbox, serverRows, serviceWorkerReady, syncStatusRow, tokenOf } from './offline-world';

/**
 * Issue #9.3, reconnecting after an offline start, in Chromium against the real server: the coach
 * signs in and syncs, the connection drops, the app is opened again with no network (reload), a
 * participant is added, and the network stays away for a while. When it returns, the change must
 * reach the server within 2 s — not after the engine's backoff (1 s, 2 s, 4 s … up to 15 min) runs
 * out, which is what happened before: 13.9 s after 30 s offline, 77 s after 150 s.
 *
 * Chromium 150's offline emulation does not reach a document loaded while it is on (a reload, a
 * page.goto, a browser launched offline): its navigator.onLine stays true and no 'online' event
 * comes when the network returns. These tests then take the engine's path for a browser that
 * never announces the return (a dead uplink), its once-a-second probe; with the 'online' event
 * alone they read 9-20 s.
 *
 * RECONNECT_OFFLINE_S=150 runs the long variant too (2.5 minutes more).
 */
const h = setupHarness();

const OFFLINE_SECONDS = [30, ...(process.env.RECONNECT_OFFLINE_S ? [Number(process.env.RECONNECT_OFFLINE_S)] : [])];
const GOAL_MS = 2_000;

async function onlineStart(): Promise<{ page: Page; context: BrowserContext; token: string }> {
  const page = await h().newPage();
  await h().signIn(page, DEMO.coach);
  await serviceWorkerReady(page);
  await eventually(async () => (await syncStatusRow(page))?.lastSyncedAt ?? null, 60_000).not.toBeNull();
  return { page, context: page.context(), token: await tokenOf(page) };
}

/** Polls the server (from Node, every 50 ms) until the participants named `tags` are all there; ms waited. */
async function msUntilOnServer(token: string, tags: string | string[], limitMs: number): Promise<number> {
  const names = [tags].flat();
  const t0 = Date.now();
  while (Date.now() - t0 < limitMs) {
    if ((await serverRows(h().baseUrl, token, 'Participant', { last_name: { $in: names } })).length >= names.length) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Infinity;
}

describe('reconnect (issue #9.3)', () => {
  for (const seconds of OFFLINE_SECONDS) {
    it(`app opened offline, a change made, ${seconds} s without network: on the server within 2 s of its return`, async () => {
      const { page, context, token } = await onlineStart();

      await context.setOffline(true);
      // Opened offline: a reload with no network (the service worker serves the app, the cached
      // user signs in, the engine starts and fails to reach the server).
      await page.reload();
      await passDeviceLock(page);
      const tag = `Reconnect${seconds}-${Date.now().toString(36)}`;
      await addParticipant(page, h().baseUrl, 'Rae', tag);
      expect(await outbox(page)).toHaveLength(1);

      await new Promise((r) => setTimeout(r, seconds * 1000));
      expect(await outbox(page)).toHaveLength(1);

      await context.setOffline(false);
      const ms = await msUntilOnServer(token, tag, 120_000);
      console.log(`offline start, ${seconds} s offline: on the server ${ms} ms after the network returned`);
      expect(ms).toBeLessThanOrEqual(GOAL_MS);
      await context.close();
    }, 120_000 + seconds * 1000);
  }

  it('browser launched with no network on a synced profile (the bench\'s cold start), 3 changes queued: on the server within 2 s of the return', async () => {
    // As a tablet switched on in a dead zone: the service worker serves the app, IndexedDB holds
    // the data, the engine starts and cannot reach the server. Chromium's offline emulation never
    // reaches such a page's navigator.onLine (true throughout): no 'online' event comes, as behind
    // a dead uplink. The bench's 1,000-op push waited up to the end of the offline hold here.
    const profile = mkdtempSync(join(tmpdir(), 'passage-e2e-profile-'));
    const launch = (offline: boolean) => chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, offline });
    let context = await launch(false);
    try {
      let page = context.pages()[0] ?? (await context.newPage());
      await h().signIn(page, DEMO.coach);
      await serviceWorkerReady(page);
      await eventually(async () => (await syncStatusRow(page))?.lastSyncedAt ?? null, 60_000).not.toBeNull();
      const token = await tokenOf(page);
      await context.close();

      context = await launch(true);
      page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${h().baseUrl}/`);
      await passDeviceLock(page);
      const tags = [1, 2, 3].map((n) => `Cold${n}-${Date.now().toString(36)}`);
      for (const tag of tags) await addParticipant(page, h().baseUrl, 'Ona', tag);
      await new Promise((r) => setTimeout(r, 30_000));
      expect(await outbox(page)).toHaveLength(3);

      await context.setOffline(false);
      const ms = await msUntilOnServer(token, tags, 120_000);
      console.log(`browser launched offline, 3 changes, 30 s: on the server ${ms} ms after the network returned`);
      expect(ms).toBeLessThanOrEqual(GOAL_MS);
    } finally {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    }
  }, 180_000);

  it('server unreachable with no "offline" event, opened that way: the next page the coach opens brings the change within 2 s', async () => {
    const { page, context, token } = await onlineStart();
    // A facility Wi-Fi with no uplink: the browser believes it is online, every API call fails.
    await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await passDeviceLock(page);
    const tag = `ReconnectRoute-${Date.now().toString(36)}`;
    await addParticipant(page, h().baseUrl, 'Ula', tag);
    await new Promise((r) => setTimeout(r, 30_000));
    expect(await outbox(page)).toHaveLength(1);

    // The uplink returns; the coach opens the Dashboard (its usage log is the first request that
    // gets through). No 'online' event fires, and the engine is deep in its offline backoff.
    await context.unrouteAll();
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    const ms = await msUntilOnServer(token, tag, 120_000);
    console.log(`offline start behind a dead uplink, 30 s: on the server ${ms} ms after the next page opened`);
    expect(ms).toBeLessThanOrEqual(GOAL_MS);
    await context.close();
  }, 150_000);

  it('started online, a change made offline after 30 s: on the server within 2 s of the return', async () => {
    const { page, context, token } = await onlineStart();
    await context.setOffline(true);
    const tag = `ReconnectOnline-${Date.now().toString(36)}`;
    await addParticipant(page, h().baseUrl, 'Sol', tag);
    await new Promise((r) => setTimeout(r, 30_000));
    await context.setOffline(false);
    const ms = await msUntilOnServer(token, tag, 120_000);
    console.log(`online start, 30 s offline: on the server ${ms} ms after the network returned`);
    expect(ms).toBeLessThanOrEqual(GOAL_MS);
    await context.close();
  }, 150_000);
});
