import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { DEFAULT_TUNING } from '../../src/data/sync/tuning';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/processes';
import { DEMO, lightPin, setupHarness, passDeviceLock } from './harness';
import { addParticipant, eventually, outbox, serverRows, serviceWorkerReady, syncStatusRow, tokenOf } from './offline-world';
import { pageTime, type PageTime } from './page-time';

/**
 * Issue #9.3, reconnecting after an offline start, in Chromium against the real server: the coach
 * signs in and syncs, the connection drops, the app is opened again with no network (reload), a
 * participant is added, and the network stays away for a while. When it returns, the change must
 * reach the server within 2 s — not after the engine's backoff (1 s, 2 s, 4 s … up to 15 min) runs
 * out, which is what happened before: 13.9 s after 30 s offline, 77 s after 150 s.
 *
 * Time is the page's (page-time.ts): the offline seconds pass on Playwright's clock, the engine
 * failing, backing off and probing on its timers as it would in real time; the 2 s are page time
 * the app spent waiting on its own timers after the return. Requests, IndexedDB and crypto take no
 * page time, so a loaded machine measures what an idle one does (the real-time version took 143 s
 * and once read 35.5 s under load).
 *
 * Each return takes one of the engine's three ways back (S9); each test fails without its way
 * (checked by breaking it: the offline starts then read 20-24 s after 30 s offline, 56 s after 150 s):
 * - the browser's 'online' event, for a page that knows it is offline (since Chromium 156 also one
 *   loaded with no network, by reload or a browser launched offline). The app's own requests on
 *   'online' (deviceStatus) bring it too through the next way: these fail only without both;
 * - a 2xx answer to any other request of the app (client.onAnswer → engine.serverReached): a dead
 *   uplink, no event at all, and the coach opens the next page;
 * - the once-a-second probe: a dead uplink, no event, and the coach does nothing.
 *
 * RECONNECT_OFFLINE_S=600 adds a run with that many seconds offline.
 */
const h = setupHarness();

const OFFLINE_SECONDS = [30, 150, ...(process.env.RECONNECT_OFFLINE_S ? [Number(process.env.RECONNECT_OFFLINE_S)] : [])];
const GOAL_MS = 2_000;

/** A fresh context with the page clock installed, signed in and synced. */
async function onlineStart(): Promise<{ page: Page; context: BrowserContext; token: string; time: PageTime }> {
  const page = await h().newPage();
  const time = await pageTime(page.context(), page);
  await h().signIn(page, DEMO.coach);
  await serviceWorkerReady(page);
  await eventually(async () => (await syncStatusRow(page))?.lastSyncedAt ?? null, 60_000).not.toBeNull();
  return { page, context: page.context(), token: await tokenOf(page), time };
}

/** The page time from now until the participants named `tags` are all on the server (page-time.ts). */
function pageMsUntilOnServer(time: PageTime, token: string, tags: string | string[]): Promise<number> {
  const names = [tags].flat();
  return time.until(async () => (await serverRows(h().baseUrl, token, 'Participant', { last_name: { $in: names } })).length >= names.length, { limitMs: 60_000 });
}

/** The coach works behind a dead uplink (every API call fails, no 'offline' event) for 30 s of page time. */
async function behindDeadUplink(tag: string): Promise<{ page: Page; context: BrowserContext; token: string; time: PageTime; tag: string }> {
  const start = { ...(await onlineStart()), tag };
  const { page, context, time } = start;
  await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await passDeviceLock(page);
  await addParticipant(page, h().baseUrl, 'Ula', tag);
  await time.pause();
  await time.pass(30_000);
  expect(await outbox(page)).toHaveLength(1);
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  return start;
}

describe('reconnect (issue #9.3)', () => {
  for (const seconds of OFFLINE_SECONDS) {
    it(`app opened offline, a change made, ${seconds} s without network: on the server within 2 s of its return`, async () => {
      const { page, context, token, time } = await onlineStart();

      await context.setOffline(true);
      // Opened offline: a reload with no network (the service worker serves the app, the cached
      // user signs in, the engine starts and fails to reach the server).
      await page.reload();
      await passDeviceLock(page);
      const tag = `Reconnect${seconds}-${Date.now().toString(36)}`;
      await addParticipant(page, h().baseUrl, 'Rae', tag);
      expect(await outbox(page)).toHaveLength(1);

      await time.pause();
      await time.pass(seconds * 1000);
      expect(await outbox(page)).toHaveLength(1);

      await context.setOffline(false);
      const ms = await pageMsUntilOnServer(time, token, tag);
      console.log(`offline start, ${seconds} s offline: on the server ${ms} ms (page time) after the network returned`);
      expect(ms).toBeLessThanOrEqual(GOAL_MS);
      await context.close();
    });
  }

  it('browser launched with no network on a synced profile (the bench\'s cold start), 3 changes queued: on the server within 2 s of the return', async () => {
    // As a tablet switched on in a dead zone: the service worker serves the app, IndexedDB holds
    // the data, the engine starts and cannot reach the server. The bench's 1,000-op push waited
    // up to the end of the offline hold here.
    const profile = mkdtempSync(join(tmpdir(), 'passage-e2e-profile-'));
    const launch = async (offline: boolean) => {
      const launched = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, offline });
      await lightPin(launched);
      return launched;
    };
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
      const time = await pageTime(context, page);
      await page.goto(`${h().baseUrl}/`);
      await passDeviceLock(page);
      const tags = [1, 2, 3].map((n) => `Cold${n}-${Date.now().toString(36)}`);
      for (const tag of tags) await addParticipant(page, h().baseUrl, 'Ona', tag);
      await time.pause();
      await time.pass(30_000);
      expect(await outbox(page)).toHaveLength(3);

      await context.setOffline(false);
      const ms = await pageMsUntilOnServer(time, token, tags);
      console.log(`browser launched offline, 3 changes, 30 s: on the server ${ms} ms (page time) after the network returned`);
      expect(ms).toBeLessThanOrEqual(GOAL_MS);
    } finally {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('server unreachable with no "offline" event, opened that way: the next page the coach opens brings the change within 2 s', async () => {
    const { page, context, token, time, tag } = await behindDeadUplink(`ReconnectRoute-${Date.now().toString(36)}`);

    // The uplink returns; the coach opens the Dashboard (its usage log is the first request that
    // gets through). No 'online' event fires, and the engine is deep in its offline backoff.
    await context.unrouteAll();
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    const ms = await pageMsUntilOnServer(time, token, tag);
    console.log(`offline start behind a dead uplink, 30 s: on the server ${ms} ms (page time) after the next page opened`);
    expect(ms).toBeLessThanOrEqual(GOAL_MS);
    // The page's answer brought it, not the engine's next probe (due a probe interval after the last).
    expect(ms).toBeLessThan(DEFAULT_TUNING.probeMs);
    await context.close();
  });

  it('server unreachable with no "offline" event, and nothing else happens when it returns: the probe brings the change within 2 s', async () => {
    const { context, token, time, tag } = await behindDeadUplink(`ReconnectProbe-${Date.now().toString(36)}`);

    // The uplink returns; the coach does nothing, no event comes: only the engine's probe can tell.
    await context.unrouteAll();
    const ms = await pageMsUntilOnServer(time, token, tag);
    console.log(`offline start behind a dead uplink, 30 s, nothing opened: on the server ${ms} ms (page time) after the uplink returned`);
    expect(ms).toBeLessThanOrEqual(GOAL_MS);
    await context.close();
  });

  it('started online, a change made offline after 30 s: on the server within 2 s of the return', async () => {
    const { page, context, token, time } = await onlineStart();
    await context.setOffline(true);
    const tag = `ReconnectOnline-${Date.now().toString(36)}`;
    await addParticipant(page, h().baseUrl, 'Sol', tag);
    await time.pause();
    await time.pass(30_000);
    expect(await outbox(page)).toHaveLength(1);
    await context.setOffline(false);
    const ms = await pageMsUntilOnServer(time, token, tag);
    console.log(`online start, 30 s offline: on the server ${ms} ms (page time) after the network returned`);
    expect(ms).toBeLessThanOrEqual(GOAL_MS);
    await context.close();
  });
});
