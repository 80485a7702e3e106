import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, setupHarness } from './harness';

/**
 * Issue #26 in Chromium against the real server: an administrator changes a participant, finds
 * the change on the Audit page by the participant's record (old → new, who, when), and sees it in
 * the participant's History; a coach is offered neither.
 */
const h = setupHarness({ serviceWorkers: 'block' });

function appErrors(page: Page): string[] {
  return h().errorsOf(page).filter((e) => !e.includes('/favicon.ico'));
}

/**
 * Serious/critical axe findings inside the page content (#main): the toast of the edit above may
 * still be fading out over the shell, which the shell's own tests check.
 */
async function axeInMain(page: Page) {
  const all = await h().axe(page);
  const inMain = await page.evaluate(
    (targetsPerViolation) => targetsPerViolation.map((targets) => targets.some((t) => !!document.querySelector(t)?.closest('#main'))),
    all.map((v) => v.targets),
  );
  return all.filter((_, i) => inMain[i]);
}

async function firstParticipant(page: Page): Promise<{ id: string; phone?: string | null }> {
  const res = await h().api(page, 'GET', '/apps/passage/entities/Participant?limit=1&sort=created_date');
  expect(res.status).toBe(200);
  return res.body[0];
}

describe('Audit (issue #26)', () => {
  it('an admin edits a participant, finds the change on Audit by its record, and in its History', async () => {
    const page = await h().newPage({ viewport: { width: 1440, height: 900 } });
    await h().signIn(page, DEMO.admin);
    const participant = await firstParticipant(page);
    const before = participant.phone ?? '';
    const after = '555-0142';

    await h().open(page, `/participantdetail?id=${participant.id}`);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Phone', { exact: true }).fill(after);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect
      .poll(async () => (await h().api(page, 'GET', `/apps/passage/entities/Participant/${participant.id}`)).body.phone, { timeout: 20_000 })
      .toBe(after);

    // The sidebar leads there; the record's id narrows it to this participant.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.waitForURL((u) => u.pathname === '/audit');
    await page.getByRole('heading', { name: 'Audit' }).waitFor();
    await page.getByLabel('Record ID').fill(participant.id);
    await page.getByLabel('Action').selectOption({ label: 'Changed' });
    const event = page.getByRole('list', { name: 'Events' }).getByRole('listitem').first();
    await expect.poll(() => event.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Changed by admin@example.org');
    const phone = event.locator('dt', { hasText: /^Phone$/ }).locator('xpath=following-sibling::dd[1]');
    await expect.poll(() => phone.innerText()).toMatch(new RegExp(`${before ? before.replace(/[-]/g, '\\-') : 'empty'}\\s*${after}`));
    expect(await event.innerText()).toContain('Succeeded');
    // Every event listed is this record's.
    for (const link of await page.getByRole('list', { name: 'Events' }).getByRole('link').all()) {
      expect(await link.getAttribute('href')).toBe(`/participantdetail?id=${participant.id}`);
    }
    expect(await axeInMain(page)).toEqual([]);

    // The participant's own History shows it too, and leads back to Audit.
    await page.getByRole('list', { name: 'Events' }).getByRole('link').first().click();
    await page.waitForURL((u) => u.pathname === '/participantdetail');
    const history = page.getByRole('region', { name: 'History' });
    const first = history.getByRole('listitem').first();
    await expect.poll(() => first.innerText(), { timeout: 20_000 }).toContain(after);
    expect(await first.innerText()).toContain('admin@example.org');
    expect(await history.getByRole('link', { name: 'Open in Audit' }).getAttribute('href')).toBe(`/audit?entity=Participant&record=${participant.id}`);
    expect(appErrors(page)).toEqual([]);
  });

  it('a coach sees no Audit entry, no History, and the page refuses them', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.coach);
    const participant = await firstParticipant(page);
    await h().open(page, `/participantdetail?id=${participant.id}`);
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    expect(await page.getByRole('region', { name: 'History' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).count()).toBe(0);
    await h().goto(page, '/audit');
    await page.getByText("You don't have permission to view this page").waitFor();
    // And the server agrees (403), whatever the screens show.
    expect((await h().api(page, 'GET', '/apps/passage/entities/AuditEvent?limit=1')).status).toBe(403);
  });
});
