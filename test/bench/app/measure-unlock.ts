/**
 * Issue #14.4: Unlock → Participants usable. On the synced profile (10,000 participants), with
 * the Participants page open, the coach presses the header's Lock button (what the idle lock does
 * too: the key and every decrypted list leave memory), types the PIN on "Passage is locked" and
 * clicks Unlock. Timed in the page: the Unlock click (event.timeStamp) → the first frame with
 * participant cards, no skeleton and the count badge at the whole total. It includes Argon2id
 * (600,000 iterations) and opening all 10,000 sealed participants for the list.
 *
 * Dexie's live-query cache keeps a query's (decrypted) result for 3 s after its last subscriber
 * goes, so an Unlock within 3 s of the Lock gets the list back from memory, without reading or
 * opening a row. A coach's lock lasts minutes (the idle lock: 15), so the bench waits on the
 * lock screen until that cache has let go, and counts the sealed rows read from IndexedDB
 * between the Unlock click and the result (page-marks.ts countSealed) to show the list was opened.
 */
import type { Page } from 'playwright-core';
import { participantCountLabel } from '../../../src/domain/participant-search';
import { settle } from './browser';
import { unlockOnScreen } from './device-lock';
import { takeSealedCounts, waitForMark } from './page-marks';

export interface UnlockParticipants {
  /** Unlock click → Participants usable, per run. */
  runs: number[];
  /** Lock screen usable → Unlock click (the wait for Dexie's cache and the typing, not counted), per run. */
  typingMs: number[];
  /** Sealed participant rows read from IndexedDB between the Unlock click and the result, per run (null: not counted). */
  sealedRead: (number | null)[];
}

/** Dexie drops a live query's cached result this long after its last subscriber (dexie.mjs enqueForDeletion), plus a margin. */
const DEXIE_CACHE_LINGER_MS = 3_000 + 1_000;

async function openParticipants(page: Page): Promise<void> {
  await page.locator('nav').getByRole('link', { name: 'Participants', exact: true }).first().click();
  await page.locator('a[href*="participantdetail" i] h3').first().waitFor({ timeout: 60_000 });
}

export async function timeUnlockParticipants(page: Page, runs: number, expectedParticipants: number): Promise<UnlockParticipants> {
  const out: UnlockParticipants = { runs: [], typingMs: [], sealedRead: [] };
  const total = participantCountLabel(expectedParticipants);
  for (let i = 0; i < runs; i++) {
    if (!/\/participants$/i.test(new URL(page.url()).pathname)) await openParticipants(page);
    await page.locator('[aria-live="polite"]', { hasText: total }).first().waitFor({ timeout: 60_000 });
    await settle(page, 500);
    await page.evaluate(() =>
      window.__bench.watch(
        'unlock-screen',
        () =>
          Array.from(document.querySelectorAll('[data-device-lock] h1')).some((h) => h.textContent === 'Passage is locked') &&
          document.querySelector('[data-device-lock] input') !== null,
      ),
    );
    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    await waitForMark(page, 'unlock-screen', 30_000);
    await page.waitForTimeout(DEXIE_CACHE_LINGER_MS);
    // Armed once the lock screen is up (the list of before the lock would satisfy it at once).
    await page.evaluate(() => {
      const s = window.__benchSealed;
      if (s) Object.assign(s, { on: true, read: {}, written: {} });
    });
    await page.evaluate(
      (total) =>
        window.__bench.watch(
          'participants-usable',
          () =>
            location.pathname.toLowerCase() === '/participants' &&
            document.querySelector('a[href*="participantdetail" i] h3') !== null &&
            document.querySelector('[data-testid="skeleton-card"]') === null &&
            document.querySelector('[aria-live="polite"]')?.textContent?.trim() === total,
        ),
      total,
    );
    const unlock = await unlockOnScreen(page, undefined, 30_000);
    const usable = await waitForMark(page, 'participants-usable', 60_000);
    const counted = await takeSealedCounts(page);
    out.runs.push(usable - unlock.submitMs);
    out.typingMs.push(unlock.submitMs - unlock.screenMs);
    out.sealedRead.push(counted ? (counted.read.participants ?? 0) : null);
  }
  return out;
}
