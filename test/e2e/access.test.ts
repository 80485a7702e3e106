import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, setupHarness } from './harness';

/**
 * Access in Chromium against the real server: the guard sends a new coach to ProfileSetup and the
 * profile reaches the server; an admin approves and revokes a pending coach, and the coach's own
 * session follows those decisions.
 */
const h = setupHarness({ serviceWorkers: 'block' });

async function me(page: Page) {
  const res = await h().api(page, 'GET', '/apps/passage/entities/User/me');
  expect(res.status).toBe(200);
  return res.body;
}

describe('access', () => {
  it('a new coach lands on ProfileSetup from any page, submits, and the request reaches the server', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.newcoach);
    await page.waitForURL((u) => u.pathname === '/profilesetup');
    await h().goto(page, '/cohorts');
    await page.waitForURL((u) => u.pathname === '/profilesetup');
    await page.getByText('Complete your coach profile to request access').waitFor();
    expect(await h().axe(page)).toEqual([]);

    await page.getByRole('button', { name: 'Request Access' }).click();
    await page.getByText('Please fill in all required fields').first().waitFor();

    await page.getByLabel('Coach Type *').selectOption('case_manager');
    await page.getByLabel('Phone Number *').fill('555-0142');
    await page.getByLabel('Organization / Facility *').fill('Valley State Prison');
    await page.getByLabel('Years of Experience').fill('3');
    await page.getByLabel('Professional Background *').fill('Case manager for reentry programs since 2022.');
    await page.getByRole('button', { name: 'Request Access' }).click();
    await page.getByText('Profile submitted! Waiting for admin approval.').waitFor();
    await page.getByRole('heading', { name: 'Access Pending Approval' }).waitFor();

    // The submission travels through the outbox: within a few seconds the server has it.
    await expect
      .poll(async () => (await me(page)).requested_access_date, { timeout: 20_000, interval: 500 })
      .toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const saved = await me(page);
    expect(saved).toMatchObject({ coach_type: 'case_manager', organization: 'Valley State Prison', years_experience: 3 });
    expect(saved.approved).not.toBe(true);
    // Still held at ProfileSetup after a reload.
    await h().goto(page, '/participants');
    await page.waitForURL((u) => u.pathname === '/profilesetup');
    await page.getByRole('heading', { name: 'Access Pending Approval' }).waitFor();
    // Uncaught errors only: the browser also logs every refused request, and the sync engine's
    // pulls are refused (403) for a user who is not approved yet — expected, not a crash.
    expect(h().errorsOf(page).filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });

  it('an admin approves a pending coach, who then gets in; then revokes them, who is sent back', async () => {
    const admin = await h().newPage();
    await h().signIn(admin, DEMO.admin);
    await h().open(admin, '/adminapprovals');
    const card = admin.getByRole('article').filter({ hasText: DEMO.pending });
    await card.waitFor();
    expect(await h().axe(admin)).toEqual([]);
    await card.getByRole('button', { name: 'Approve as Coach' }).click();
    await admin.getByText('User approved successfully!').waitFor();
    // Refreshed: the coach left the pending list and shows under Approved Coaches.
    await expect.poll(() => admin.getByRole('article').filter({ hasText: DEMO.pending }).count()).toBe(0);
    await admin.getByLabel('Show').selectOption('approved');
    const approved = admin.getByRole('article').filter({ hasText: DEMO.pending });
    await approved.getByText(/Approved: .* by admin@example\.org/).waitFor();

    const coach = await h().newPage();
    await h().signIn(coach, DEMO.pending);
    await h().goto(coach, '/cohorts');
    expect(new URL(coach.url()).pathname).toBe('/cohorts');
    expect(await coach.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cohorts' }).getAttribute('aria-current')).toBe('page');

    await approved.getByRole('button', { name: 'Revoke Access' }).click();
    await admin.getByText('User access revoked').waitFor();
    await admin.getByLabel('Show').selectOption('rejected');
    await admin.getByRole('article').filter({ hasText: DEMO.pending }).waitFor();

    // The revoked coach's next start-up reads the server's answer and holds them at ProfileSetup.
    await h().goto(coach, '/participants');
    await coach.waitForURL((u) => u.pathname === '/profilesetup');
    expect((await me(coach)).role).toBe('guest');
    // Issue #12.5: told plainly, and no sidebar entry leads anywhere they cannot go.
    await coach.getByRole('heading', { name: 'Access Not Granted' }).waitFor();
    expect(await coach.getByRole('navigation', { name: 'Main' }).getByRole('link').count()).toBe(0);
  });
});
