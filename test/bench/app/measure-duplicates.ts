/**
 * Issue #23.7: AddParticipant's possible duplicates while the coach types. From the Participants
 * page (the whole list already read, as a coach arrives at intake), Add Participant, then for each
 * planned target its first name and date of birth filled in and its last name typed and erased;
 * keydown `timeStamp` → the first frame whose panel lists the planned number of matches.
 * On the administrator's tablet (every site held), so nothing is asked of the server: the tablet's
 * own look-up over 10,000 participants is measured.
 */
import type { Page } from 'playwright-core';
import { waitForMark } from './page-marks';
import type { DuplicateTarget } from './duplicates-plan';

/** Arms the 'duplicates' mark: the first frame whose panel lists `expected` matches (none: no panel). */
async function armCount(page: Page, expected: number): Promise<void> {
  await page.evaluate((n) => {
    window.__bench.watch('duplicates', () => document.querySelectorAll('ul[aria-label="Possible duplicates"] > li').length === n);
  }, expected);
}

export async function timeDuplicates(page: Page, targets: readonly DuplicateTarget[], wanted: number): Promise<number[]> {
  await page.locator('nav').getByRole('link', { name: 'Participants', exact: true }).first().click();
  await page.getByRole('link', { name: 'Add Participant' }).first().click();
  const first = page.locator('#participant-first-name');
  const last = page.locator('#participant-last-name');
  const dob = page.locator('#participant-date-of-birth');
  await first.waitFor({ timeout: 60_000 });
  const out: number[] = [];
  for (const target of targets) {
    await first.fill(target.first_name);
    await dob.fill(target.date_of_birth);
    // Warm-up, not timed: the whole name shows its matches once the list is read and indexed.
    const typed = target.steps.filter((s) => s.key !== 'Backspace');
    await armCount(page, typed[typed.length - 1].expected);
    await last.fill(typed.map((s) => s.key).join(''));
    await waitForMark(page, 'duplicates', 60_000);
    await armCount(page, 0);
    await last.fill('');
    await waitForMark(page, 'duplicates', 30_000);
    await last.click();
    for (const step of target.steps) {
      const timed = step.timed && out.length < wanted;
      await page.evaluate(() => {
        const input = document.querySelector('#participant-last-name')!;
        delete window.__bench.marks.key;
        input.addEventListener('keydown', (e) => (window.__bench.marks.key = e.timeStamp), { capture: true, once: true });
      });
      await armCount(page, step.expected);
      await page.keyboard.press(step.key);
      const shown = await waitForMark(page, 'duplicates', 30_000);
      const key = await page.evaluate(() => window.__bench.marks.key);
      if (timed) out.push(shown - key);
    }
    if (out.length >= wanted) break;
  }
  return out;
}
