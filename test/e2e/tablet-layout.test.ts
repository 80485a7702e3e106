import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO, dismissToasts, setupHarness } from './harness';
import { coachParticipants, eventually, loginToken, serverRows, syncStatusRow, toast } from './offline-world';

/**
 * Issue #12 in Chromium, at the three viewports coaches and admins use: toasts hide no header
 * control (#12.7), the long participant edit form keeps Save in reach (#12.8), and one field
 * height and section-title placement across forms (#12.10).
 *
 * One coach's session runs through the file, turned and resized between tests as a tablet is
 * (coachAt, harness session): a sign-in costs about 3 CPU-s and is not what this file checks
 * (issue #27.5).
 */
const h = setupHarness({ serviceWorkers: 'block' });

/** The coach's session (harness session) at `viewport`, with no toast left from the test before. */
async function coachAt(viewport: { width: number; height: number }): Promise<Page> {
  const page = await h().session(DEMO.coach, { viewport });
  await dismissToasts(page);
  return page;
}

const VIEWPORTS = [
  { width: 1024, height: 768 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
];

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
}

/**
 * The box of `root` and of the last element inside it matching `pick`, read in one go and only once
 * two reads 150 ms apart agree: the first sync still filling lists and banners moves the layout,
 * and two boxes read at different moments can disagree by the height of whatever came between.
 */
async function settledBoxes(root: Locator, pick: string): Promise<Box[]> {
  const handle = await root.elementHandle();
  if (!handle) throw new Error('not attached');
  let previous = '';
  for (let i = 0; i < 60; i++) {
    const boxes = await handle.evaluate((el, pickWhat) => {
      const rect = (e: Element) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      };
      const picked = [...el.querySelectorAll(pickWhat)];
      return [rect(el), ...(picked.length ? [rect(picked[picked.length - 1])] : [])];
    }, pick);
    const key = JSON.stringify(boxes);
    if (boxes.length === 2 && key === previous) return boxes;
    previous = key;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the layout around ${pick} never settled`);
}

/** The box of the toast once sonner has slid it in (mounted, its 400 ms transitions finished). */
async function toastAtRest(page: Page): Promise<Box> {
  const shown = page.locator('[data-sonner-toast][data-mounted="true"]').first();
  await shown.waitFor({ timeout: 15_000 });
  await shown.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))));
  return box(shown);
}

async function firstSyncDone(page: Page): Promise<void> {
  await eventually(async () => (await syncStatusRow(page))?.lastSyncedAt ?? null, 60_000).not.toBeNull();
}

/** Every visible control of the header (toggle, sync chip, Sync now, Log out). */
async function headerControls(page: Page): Promise<Box[]> {
  const controls = page.locator('header').first().locator('a, button');
  const boxes: Box[] = [];
  for (let i = 0; i < (await controls.count()); i++) {
    const b = await controls.nth(i).boundingBox();
    if (b && b.width > 0) boxes.push(b);
  }
  return boxes;
}

describe('the coach’s day on a tablet (issue #12)', () => {
  for (const viewport of VIEWPORTS) {
    it(`${viewport.width}×${viewport.height}: a save's toast covers no header control; Save stays reachable in the long edit form`, async () => {
      const page = await coachAt(viewport);
      const token = await loginToken(h().baseUrl, DEMO.coach, 'demo-pass-2026');
      const [p] = await coachParticipants(h().baseUrl, token);
      await h().open(page, `/participantdetail?id=${p.id}`);
      await page.getByRole('button', { name: 'Edit Profile' }).click();

      // #12.8: the form is longer than the screen, yet Save Changes is on screen without scrolling.
      const save = page.getByRole('button', { name: 'Save Changes' });
      const form = await box(page.getByRole('form', { name: 'Edit participant' }));
      expect(form.y + form.height).toBeGreaterThan(viewport.height);
      // Wait until the page has settled (first sync still filling panels moves the layout).
      await page.waitForTimeout(500);
      const saveBox = await box(save);
      expect(saveBox.y + saveBox.height).toBeLessThanOrEqual(viewport.height);
      expect(saveBox.y).toBeGreaterThanOrEqual(0);

      await page.getByRole('form', { name: 'Edit participant' }).getByLabel('Phone', { exact: true }).fill(`(555) 010-${viewport.width}`);
      await save.click();
      await toast(page, 'Participant updated successfully!');
      // #12.7: the toast is on screen and overlaps none of the header's controls.
      const shown = await toastAtRest(page);
      expect(shown.y + shown.height).toBeLessThanOrEqual(viewport.height);
      const controls = await headerControls(page);
      expect(controls.length).toBeGreaterThanOrEqual(2);
      for (const control of controls) expect(overlaps(shown, control)).toBe(false);
      // Editing again while the toast is still up: it covers neither Cancel nor Save Changes.
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      const still = await box(page.locator('[data-sonner-toast]').first());
      for (const name of ['Cancel', 'Save Changes']) expect(overlaps(still, await box(page.getByRole('button', { name, exact: true })))).toBe(false);
    });
  }

  it('forms: selects and inputs share one height; section titles sit inside their card (#12.10)', async () => {
    const page = await coachAt({ width: 1024, height: 768 });
    await h().open(page, '/addcohort');
    const heights = await Promise.all(
      ['Program *', 'Site *', 'Cohort Code *', 'Start Date *', 'Capacity', 'Status', 'Lead Coach'].map(async (label) => (await box(page.getByLabel(label, { exact: true }))).height),
    );
    expect(new Set(heights.map(Math.round))).toEqual(new Set([40]));
    await firstSyncDone(page);
    for (const title of ['Cohort Details', 'Coaching Staff']) {
      const [card, legend] = await settledBoxes(page.getByRole('group', { name: title }), 'legend');
      // Below the card's top border, not straddling it.
      expect(legend.y).toBeGreaterThanOrEqual(card.y + 8);
    }
  });

  it('ProgramDetail: the Cohorts card ends with its content; SiteDetail: the type badge reads like Facility Type (#12.10)', async () => {
    const page = await coachAt({ width: 1440, height: 900 });
    const token = await loginToken(h().baseUrl, DEMO.coach, 'demo-pass-2026');
    const cohorts = await serverRows(h().baseUrl, token, 'Cohort');
    await h().open(page, `/programdetail?id=${cohorts[0].program_id}`);
    const panel = page.locator('div.rounded-xl', { has: page.getByRole('heading', { name: /^Cohorts \(/ }) }).first();
    await panel.getByRole('listitem').first().waitFor();
    await firstSyncDone(page);
    const [card, last] = await settledBoxes(panel, 'li');
    // The card's padding (20 px) below its last cohort, not the side column's height.
    expect(card.y + card.height - (last.y + last.height)).toBeLessThanOrEqual(24);

    await h().open(page, `/sitedetail?id=${cohorts[0].site_id}`);
    const badge = page.locator('h1 span span').first();
    await badge.waitFor();
    expect(await badge.evaluate((el) => getComputedStyle(el).textTransform)).toBe('capitalize');
  });
});
