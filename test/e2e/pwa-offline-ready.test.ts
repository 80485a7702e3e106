import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, setupHarness, passDeviceLock } from './harness';

/**
 * Issue #11.6 in Chromium against the real server: each screen is its own chunk, so the first page
 * needs less JavaScript; the header says "Getting ready to work offline…" from sign-in until this
 * device can open every page without a connection, then "Ready to work offline". From that moment
 * on the connection may go: every page opens, and so does a reload.
 */
const h = setupHarness();

const readiness = (page: Page) => page.getByTestId('offline-readiness');
const nav = (page: Page, name: string) => page.locator('nav').getByRole('link', { name, exact: true }).first();

async function heading(page: Page, name: string) {
  await page.getByRole('heading', { level: 1, name }).first().waitFor({ timeout: 15_000 });
}

describe('ready to work offline (issue #11.6)', () => {
  it('says when it is getting ready and when it is ready; once ready, every page opens offline', async () => {
    const page = await h().newPage({ viewport: { width: 1280, height: 800 } });
    // Every text the line shows, frame by frame, from the first script on (it may pass quickly on loopback).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __readiness: string[] }).__readiness = seen;
      const look = () => {
        const text = document.querySelector('[data-testid="offline-readiness"]')?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    await h().signIn(page, DEMO.coach);
    await readiness(page).getByText('Ready to work offline').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => (window as unknown as { __readiness: string[] }).__readiness.some((t) => t.includes('Ready to work offline')));
    const seen = await page.evaluate(() => (window as unknown as { __readiness: string[] }).__readiness.map((t) => t.trim()));
    // "Getting ready" shows while the worker installs, if the app is on screen by then: since
    // issue #21 the PIN's key derivation (Argon2id, ~1 s) often outlasts the install.
    expect([['Getting ready to work offline…', 'Ready to work offline'], ['Ready to work offline']]).toContainEqual(seen);

    // The connection goes the moment the line says so.
    await page.context().setOffline(true);
    for (const [link, title] of [
      ['Participants', 'Participants'],
      ['Cohorts', 'Cohorts'],
      ['Programs & Sites', 'Programs & Sites'],
      ['Add Participant', 'Add New Participant'],
      ['Dashboard', 'Dashboard'],
    ] as const) {
      await nav(page, link).click();
      await heading(page, title);
    }
    await page.getByRole('link', { name: /Open the Sync page/ }).click();
    await heading(page, 'Sync');
    expect(await page.getByText('This page is not on this device yet').count()).toBe(0);

    // A reload offline comes from the service worker's precache.
    await page.reload();
    await passDeviceLock(page);
    await heading(page, 'Sync');
    await nav(page, 'Cohorts').click();
    await heading(page, 'Cohorts');
    // Ready from the start of this page: nothing to announce.
    expect(await readiness(page).textContent()).toBe('');
    await page.context().setOffline(false);
  });

  it('a page whose code never reached the device says so, and opens with Try again once it can be fetched', async () => {
    const page = await h().newPage({ viewport: { width: 1280, height: 800 } });
    // No service worker this time, and the Cohorts screen's chunk cannot be fetched.
    await page.context().route('**/sw.js', (route) => route.abort('internetdisconnected'));
    const blocked = async (route: import('playwright-core').Route) => route.abort('internetdisconnected');
    await page.context().route(/\/assets\/cohorts-page-[\w-]+\.js$/, blocked);
    await h().signIn(page, DEMO.coach);
    await heading(page, 'Dashboard');
    // Not ready, and it does not pretend to be.
    await page.waitForTimeout(1_500);
    expect(await readiness(page).getAttribute('data-state')).not.toBe('ready');

    await nav(page, 'Cohorts').click();
    await page.getByRole('heading', { name: 'This page is not on this device yet' }).waitFor({ timeout: 15_000 });
    await page.context().unroute(/\/assets\/cohorts-page-[\w-]+\.js$/, blocked);
    await page.getByRole('button', { name: 'Try again' }).click();
    await heading(page, 'Cohorts');
    // The rest of the app worked all along.
    await nav(page, 'Participants').click();
    await heading(page, 'Participants');
    const errors = h().errorsOf(page).filter((e) => !/cohorts-page|sw\.js|Failed to fetch|ERR_INTERNET_DISCONNECTED|Service worker|fetching the script/.test(e));
    expect(errors).toEqual([]);
  });
});
