import { describe, expect, it } from 'vitest';
import { DEMO, TEST_PIN, setupHarness } from './harness';
import { coachParticipants, fullName, tokenOf } from './offline-world';
import { pageTime } from './page-time';

/**
 * Issue #14.3, AC-11: after the administrator's idle minutes (here IDLE_LOCK_MINUTES=0.1, 6 s)
 * without a touch or a key, Passage locks: the page's data leaves the screen and the PIN brings
 * the coach back to the same page. The idle seconds are page time (page-time.ts): the lock's own
 * clock and interval run on Playwright's clock, so the test waits for none of them in real time.
 */
const h = setupHarness({ env: { IDLE_LOCK_MINUTES: '0.1' }, serviceWorkers: 'block' });

describe('idle lock (issue #14.3)', () => {
  it('locks after the idle time; use keeps it open; the PIN returns to the same page', async () => {
    const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
    const time = await pageTime(page.context(), page);
    await h().signIn(page, DEMO.coach);
    const p = (await coachParticipants(h().baseUrl, await tokenOf(page)))[0];
    await h().open(page, '/participants');
    await page.getByLabel('Search participants').fill(String(p.last_name));
    await page.getByText(fullName(p)).first().waitFor({ timeout: 30_000 });

    // Typing counts as use: 8 s of a key every second does not lock.
    await time.pause();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Shift');
      await time.pass(1000);
    }
    expect(await page.getByRole('heading', { name: 'Passage is locked' }).count()).toBe(0);

    // Then without a touch: open at 5 s, locked once 6 s have passed (the lock checks every 1.5 s).
    await time.pass(4_000);
    expect(await page.getByRole('heading', { name: 'Passage is locked' }).count()).toBe(0);
    await time.pass(2_500);
    await page.getByRole('heading', { name: 'Passage is locked' }).waitFor({ timeout: 20_000 });
    await time.resume();
    expect(await page.getByText(fullName(p)).count()).toBe(0);
    await page.getByLabel('PIN', { exact: true }).fill(TEST_PIN);
    await page.getByRole('button', { name: 'Unlock' }).click();
    // The same page; the typed name did not wait in memory behind the lock (issue #21.6).
    await page.getByRole('heading', { name: 'Participants' }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/participants');
    expect(await page.getByLabel('Search participants').inputValue()).toBe('');
    await page.getByLabel('Search participants').fill(String(p.last_name));
    await page.getByText(fullName(p)).first().waitFor({ timeout: 30_000 });
  });
});
