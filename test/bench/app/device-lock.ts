/**
 * Past the device lock (issue #14) the way a coach gets past it: on "Set a PIN for this tablet"
 * (the first sign-in on a device) the PIN typed twice and Save PIN; on "Passage is locked" (a
 * start without a connection, the Lock button) the PIN and Unlock — with the page's own inputs.
 * The bench times the app around these steps, never the typing: page-marks.ts records when each
 * screen became usable ('pin-screen', 'unlock-screen') and the submit click ('lock-submit').
 */
import type { Page } from 'playwright-core';
import { waitForMark } from './page-marks';

/** The bench coach's PIN (the e2e tests' TEST_PIN; the demo policy asks for at least 8 digits). */
export const BENCH_PIN = '24681357';

export interface LockStep {
  /** The screen usable, ms since this page's navigation start. */
  screenMs: number;
  /** The Save PIN / Unlock click (event.timeStamp), same clock. */
  submitMs: number;
}

async function submitted(page: Page, screenMs: number): Promise<LockStep> {
  const submitMs = await page.waitForFunction(() => window.__bench?.marks['lock-submit'], undefined, { timeout: 10_000, polling: 20 });
  return { screenMs, submitMs: (await submitMs.jsonValue()) as number };
}

/** On "Set a PIN for this tablet": waits for the screen, types the PIN twice, clicks Save PIN. */
export async function setPinOnScreen(page: Page, pin = BENCH_PIN, timeoutMs = 120_000): Promise<LockStep> {
  const screenMs = await waitForMark(page, 'pin-screen', timeoutMs);
  await page.evaluate(() => delete window.__bench.marks['lock-submit']);
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByLabel('Confirm PIN').fill(pin);
  await page.getByRole('button', { name: 'Save PIN' }).click();
  return submitted(page, screenMs);
}

/**
 * On "Passage is locked": waits for the screen (mark `screenMark`, re-armed by the caller when the
 * screen comes a second time in one page), types the PIN, clicks Unlock.
 */
export async function unlockOnScreen(page: Page, pin = BENCH_PIN, timeoutMs = 120_000, screenMark = 'unlock-screen'): Promise<LockStep> {
  const screenMs = await waitForMark(page, screenMark, timeoutMs);
  await page.evaluate(() => delete window.__bench.marks['lock-submit']);
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Unlock' }).click();
  return submitted(page, screenMs);
}

/** After a navigation (offline, every start asks for the PIN): past whichever lock screen shows, then the app. */
export async function passLock(page: Page, pin = BENCH_PIN): Promise<void> {
  await page.locator('[data-app-ready]').first().waitFor({ timeout: 60_000 });
  if (await page.locator('[data-device-lock]').count()) {
    if (await page.getByRole('heading', { name: 'Set a PIN for this tablet' }).count()) await setPinOnScreen(page, pin);
    else await unlockOnScreen(page, pin);
  }
  await page.locator('[data-app-ready]:not([data-device-lock])').first().waitFor({ timeout: 60_000 });
}
