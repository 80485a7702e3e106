import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, passDeviceLock, setupHarness, tokenOf as harnessToken } from './harness';
import { pageTime } from './page-time';

/**
 * The participant flows in Chromium against the real server (issue #4): a coach adds a
 * participant, finds them by search, opens them, edits a field and sees the change — and both the
 * create and the edit reach the server through the outbox (the engine pushes ~1 s after a write).
 * A second adds a participant with the browser offline; a third loads 10,000 participants and
 * measures the windowed list and its search.
 */
const h = setupHarness({ serviceWorkers: 'block' });

type Row = Record<string, unknown> & { id: string };

async function tokenOf(page: Page): Promise<string> {
  return harnessToken(page);
}

/** Reads the platform API with the signed-in page's token: what the server holds, not the mirror. */
async function api(page: Page, entity: string, query: Record<string, unknown>): Promise<Row[]> {
  const res = await fetch(`${h().baseUrl}/api/apps/passage/entities/${entity}?q=${encodeURIComponent(JSON.stringify(query))}`, {
    headers: { Authorization: `Bearer ${await tokenOf(page)}`, 'X-App-Id': 'passage' },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Row[];
}

/** Errors of the app itself: the browser's automatic /favicon.ico request (404 on the server's /login page) is not one. */
function appErrors(page: Page): string[] {
  return h().errorsOf(page).filter((e) => !e.includes('/favicon.ico'));
}

/**
 * Serious/critical axe violations inside the page content (#main): this file checks the participant
 * screens; the shell's header and sidebar are covered by the shell's own walk-through tests.
 */
async function axeInMain(page: Page) {
  const all = await h().axe(page);
  const inMain = await page.evaluate(
    (targetsPerViolation) => targetsPerViolation.map((targets) => targets.some((t) => !!document.querySelector(t)?.closest('#main'))),
    all.map((v) => v.targets),
  );
  return all.filter((_, i) => inMain[i]);
}

function eventually<T>(read: () => Promise<T>) {
  return expect.poll(read, { timeout: 20_000, interval: 250 });
}

async function toast(page: Page, text: string) {
  await page.getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });
}

describe('participants in the browser', () => {
  it('coach: add → search → open → edit → the server has both', async () => {
    // The server's CSP in force, as on a tablet: harness.axe evaluates axe-core over CDP.
    const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
    await h().signIn(page, DEMO.coach);

    // AddParticipant: the age fills in from the date of birth.
    await h().open(page, '/addparticipant');
    await page.getByLabel('First Name *', { exact: true }).fill('Rosalind');
    await page.getByLabel('Last Name *', { exact: true }).fill('Quintero-Vale');
    await page.getByLabel('Email', { exact: true }).fill('rosalind.qv@example.net');
    await page.getByLabel('Date of Birth', { exact: true }).fill('1991-04-02');
    const expectedAge = await page.evaluate(() => {
      const t = new Date();
      return t.getFullYear() - 1991 - (t.getMonth() < 3 || (t.getMonth() === 3 && t.getDate() < 2) ? 1 : 0);
    });
    expect(await page.getByLabel('Age', { exact: true }).inputValue()).toBe(String(expectedAge));
    await page.getByLabel('Case Manager', { exact: true }).fill('Dana Cruz');
    await page.getByRole('button', { name: 'Add Participant' }).click();
    await toast(page, 'Participant added successfully!');
    await page.waitForURL((url) => url.pathname === '/participants');

    // The create reaches the server once, with the age as an integer and the list's fields set.
    await eventually(async () => (await api(page, 'Participant', { last_name: 'Quintero-Vale' })).length).toBe(1);
    const [created] = await api(page, 'Participant', { last_name: 'Quintero-Vale' });
    expect(created).toMatchObject({ first_name: 'Rosalind', age: expectedAge, custody_status: 'in-custody', gender: 'male', program_status: 'active', case_manager: 'Dana Cruz' });

    // Participants: search by part of the email, case-insensitively.
    await page.getByPlaceholder('Search by name or email...').fill('ROSALIND.QV');
    await page.getByText('1 participant', { exact: true }).waitFor();
    // h().axe lets the card's entrance animation finish before judging contrast.
    expect(await axeInMain(page)).toEqual([]);
    await page.getByRole('heading', { name: 'Rosalind Quintero-Vale' }).click();
    await page.waitForURL((url) => url.pathname === '/participantdetail');
    await page.getByRole('heading', { level: 1, name: 'Rosalind Quintero-Vale' }).waitFor();
    await page.getByText('Not enrolled in any cohorts').waitFor();

    // Edit one field inline.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Case Manager', { exact: true }).fill('Morgan Reyes-Tan');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Participant updated successfully!');
    await page.locator('#main').getByText('Morgan Reyes-Tan', { exact: true }).waitFor();

    await eventually(async () => (await api(page, 'Participant', { id: created.id }))[0]?.case_manager).toBe('Morgan Reyes-Tan');
    const [after] = await api(page, 'Participant', { id: created.id });
    expect(after).toMatchObject({ email: 'rosalind.qv@example.net', age: expectedAge });

    // The page URL may hold the temporary id; after a reload (and the PIN, issue #21.3) it still
    // shows the participant (alias).
    await page.reload();
    expect(await passDeviceLock(page)).toBe('unlock');
    await page.getByRole('heading', { level: 1, name: 'Rosalind Quintero-Vale' }).waitFor({ timeout: 30_000 });
    expect(await axeInMain(page)).toEqual([]);
    expect(appErrors(page)).toEqual([]);
  });

  it('coach offline: the new participant is saved and listed at once, and reaches the server when back online', async () => {
    const page = await h().newPage({ viewport: { width: 1440, height: 900 } });
    const time = await pageTime(page.context(), page);
    await h().signIn(page, DEMO.coach);
    await h().open(page, '/addparticipant');
    await page.context().setOffline(true);

    await page.getByLabel('First Name *', { exact: true }).fill('Imani');
    await page.getByLabel('Last Name *', { exact: true }).fill('Offline-Okafor');
    await page.getByRole('button', { name: 'Add Participant' }).click();
    await toast(page, 'Participant added successfully!');
    await page.waitForURL((url) => url.pathname === '/participants');
    await page.getByPlaceholder('Search by name or email...').fill('okafor');
    await page.getByRole('heading', { name: 'Imani Offline-Okafor' }).waitFor();
    // Still offline past the ~1 s push delay (2 s of page time, page-time.ts): the server does not
    // have it (this test reads the API from Node).
    await time.pause();
    await time.pass(2_000);
    expect((await api(page, 'Participant', { last_name: 'Offline-Okafor' })).length).toBe(0);

    // Online again: the engine pushes the queued create exactly once, and 2 s later (page time,
    // every request of the page finished) it is still once.
    await page.context().setOffline(false);
    const count = async () => (await api(page, 'Participant', { last_name: 'Offline-Okafor' })).length;
    expect(await time.until(async () => (await count()) > 0)).toBeLessThan(Infinity);
    await time.pass(2_000);
    expect(await count()).toBe(1);
  });

  it('10,000 participants: the list renders a window of cards and search answers quickly', async () => {
    const page = await h().newPage({ viewport: { width: 1440, height: 900 } });
    // An administrator's desktop holds every site (issue #22): unenrolled rows are on it too.
    await h().signIn(page, DEMO.admin);
    const token = await tokenOf(page);
    const TOTAL = 10_000;
    const CHUNK = 500;
    for (let start = 0; start < TOTAL; start += CHUNK) {
      const batch = Array.from({ length: CHUNK }, (_, k) => {
        const i = start + k;
        return {
          first_name: `Scale${i}`,
          last_name: `Person${String(i).padStart(5, '0')}`,
          email: `scale${i}@example.net`,
          custody_status: i % 2 ? 'in-custody' : 'released',
          program_status: 'active',
          enrollment_date: '2024-01-01',
        };
      });
      const res = await fetch(`${h().baseUrl}/api/apps/passage/entities/Participant/bulk`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'X-App-Id': 'passage', 'Content-Type': 'application/json' },
        body: JSON.stringify(batch),
      });
      expect(res.status).toBe(200);
    }

    await h().goto(page, '/participants');
    // The engine pulls the new rows (pages of up to 5000); the count badge follows live.
    const badge = page.getByText(/^\d+ participants$/);
    await expect.poll(async () => Number((await badge.textContent())?.split(' ')[0]), { timeout: 90_000, interval: 500 }).toBeGreaterThanOrEqual(TOTAL);

    const grid = page.getByRole('list', { name: 'Participants', exact: true });

    // Open the list again with the 10,000 rows already on the device: time to the first card.
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const tOpen = Date.now();
    await page.getByRole('link', { name: 'Participants' }).first().click();
    await grid.getByRole('listitem').first().waitFor();
    const openMs = Date.now() - tOpen;
    await page.getByText(/^\d+ participants$/).waitFor();
    const cards = await grid.getByRole('listitem').count();
    expect(cards).toBeGreaterThan(0);
    expect(cards).toBeLessThan(60);

    // Keystroke → filtered grid: type the last character of a unique query and time until one card remains.
    const search = page.getByPlaceholder('Search by name or email...');
    await search.fill('person0987');
    const t0 = Date.now();
    await search.press('6');
    await page.getByRole('heading', { name: 'Scale9876 Person09876' }).waitFor();
    await page.getByText('1 participant', { exact: true }).waitFor();
    const searchMs = Date.now() - t0;

    // Rows are measured after layout and placed without a re-render (issue #11.5): after a search
    // that leaves cards of different heights, what is painted has no overlap and no gap.
    await search.fill('person01');
    await page.getByText(/^\d+ participants$/).waitFor();
    await page.waitForTimeout(300);
    const layout = await page.evaluate(() => {
      const rows = Array.from(document.querySelectorAll('[role="list"][aria-label="Participants"] > [role="none"]'))
        .map((r) => r.getBoundingClientRect())
        .sort((a, b) => a.top - b.top);
      const cards = Array.from(document.querySelectorAll('[role="list"][aria-label="Participants"] [role="listitem"]')).map((c) => c.getBoundingClientRect());
      return { gaps: rows.slice(1).map((r, i) => r.top - rows[i].bottom), rows: rows.length, cardsInsideRows: cards.every((c) => rows.some((r) => c.top >= r.top - 0.5 && c.bottom <= r.bottom + 0.5)) };
    });
    expect(layout.rows).toBeGreaterThan(1);
    expect(layout.gaps.every((g) => Math.abs(g) <= 1), `gaps between rows: ${layout.gaps.join(', ')}`).toBe(true);
    expect(layout.cardsInsideRows).toBe(true);

    // Scrolling to the bottom still shows cards, and the DOM stays small.
    // The whole list again: the filtered count ("1005 participants") is still shown for a moment,
    // and a scroll to the end of that list read the last card of 1005 against a set of 10,042
    // (once, on a faster Chromium build).
    await search.fill('');
    await expect.poll(async () => Number((await badge.textContent())?.split(' ')[0]), { timeout: 15_000 }).toBeGreaterThanOrEqual(TOTAL);
    // The badge can reach the total before the list holds it (it read 1005 against 10,042 once
    // more in a whole npm test): the scroll waits for the list's own set size.
    await expect.poll(async () => Number(await grid.getByRole('listitem').first().getAttribute('aria-setsize')), { timeout: 15_000 }).toBeGreaterThanOrEqual(TOTAL);
    await page.mouse.wheel(0, 2_000_000);
    await page.waitForTimeout(300);
    const cardsAfterScroll = await grid.getByRole('listitem').count();
    expect(cardsAfterScroll).toBeGreaterThan(0);
    expect(cardsAfterScroll).toBeLessThan(60);
    // The last participant of the list is reachable by scrolling (the window moved, it did not just stop).
    expect(await grid.getByRole('listitem').last().getAttribute('aria-posinset')).toBe(String(await grid.getByRole('listitem').first().getAttribute('aria-setsize')));

    console.log(
      `[participants e2e] ${TOTAL} participants: list opened (local data) → first card ${openMs} ms; ${cards} cards in the DOM, ` +
        `${cardsAfterScroll} after scrolling to the end; search keystroke → result ${searchMs} ms`,
    );
    // End to end through Playwright on a shared 2-core box (measured 67–780 ms while other test
    // suites ran); the filter itself takes about 1 ms (unit test). 2 s flags a real regression
    // (e.g. re-indexing 10,000 rows per keystroke) without failing on a busy machine.
    expect(searchMs).toBeLessThan(2_000);
    // Reading 10,000 rows from IndexedDB, sorting and indexing them: measured 0.3–1 s here; 5 s
    // would mean something reads per card again.
    expect(openMs).toBeLessThan(5_000);

    // The grid's first render reuses the last visit's geometry: a tablet turned while another
    // page was open must still get the columns of its new width, and a card right under the
    // header (not hidden behind it, not after a gap).
    const columnsShown = async () => {
      await grid.getByRole('listitem').first().waitFor();
      await page.waitForTimeout(300);
      return page.evaluate(() => {
        const grid = document.querySelector('[role="list"][aria-label="Participants"]')!;
        const row = grid.querySelector('[role="none"]')!;
        const first = row.querySelector('[role="listitem"]')!.getBoundingClientRect();
        const header = document.querySelector('[aria-live="polite"]')!.getBoundingClientRect();
        return { columns: row.querySelectorAll('[role="listitem"]').length, firstCardTop: first.top, gridTop: grid.getBoundingClientRect().top, countBottom: header.bottom };
      });
    };
    // At 768 px the sidebar starts as its 3rem icon rail (issue #23.9), leaving the grid ~670 px:
    // two columns, as on a landscape tablet (it was one beside the 16rem sidebar).
    for (const [viewport, columns] of [
      [{ width: 768, height: 1024 }, 2],
      [{ width: 1440, height: 900 }, 3],
    ] as const) {
      await page.getByRole('link', { name: 'Dashboard' }).first().click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.setViewportSize(viewport);
      await page.getByRole('link', { name: 'Participants' }).first().click();
      const shown = await columnsShown();
      expect(shown.columns, `${viewport.width}×${viewport.height}`).toBe(columns);
      expect(Math.abs(shown.firstCardTop - shown.gridTop)).toBeLessThanOrEqual(1);
      expect(shown.gridTop).toBeGreaterThan(shown.countBottom);
    }
    expect(appErrors(page)).toEqual([]);
  }, 240_000);
});
