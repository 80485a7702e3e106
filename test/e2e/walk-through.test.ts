import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CONTEXT_DEFAULTS, DEMO, setupHarness, type Harness } from './harness';
import { watchWork, type PageWork } from './page-time';

/**
 * Every page, as an admin and as a coach, in Chromium against the real server: the page renders
 * (no 404, no crash, no console error), the sidebar reaches it, and axe-core finds no serious or
 * critical violation. Also the 404 screen with and without the admin note.
 */
// On PGlite, as `npm start` runs: every page's reads against the default store (test/support/test-databases.ts).
const h = setupHarness({ store: 'pglite', serviceWorkers: 'block' });

/** The work watcher of each page (page-time.ts watchWork), set up before its sign-in (signedIn). */
const work = new WeakMap<Page, PageWork>();

/**
 * `email`'s signed-in page, watched, at `viewport` (harness session): the tests of one account
 * share a session, as one person's day does; a sign-in is the subject of none of them (issue #27.5).
 */
function signedIn(email: string, viewport?: { width: number; height: number }): Promise<Page> {
  return h().session(email, { viewport, prepare: async (page) => void work.set(page, await watchWork(page.context(), page)) });
}

async function firstId(page: Page, entity: string): Promise<string> {
  const res = await h().api(page, 'GET', `/apps/passage/entities/${entity}?limit=1`);
  expect(res.status).toBe(200);
  return res.body[0].id;
}

/**
 * Opens a page (`how`: 'load' types its address, 'open' follows a link, see harness open), checks it
 * rendered, and returns its axe findings keyed by path (empty when clean).
 */
async function visit(page: Page, path: string, harness: Harness, how: 'load' | 'open'): Promise<Record<string, string[]>> {
  await (how === 'load' ? harness.goto(page, path) : harness.open(page, path));
  const heading = page.locator('main h1').first();
  await heading.waitFor({ timeout: 20_000 });
  const title = (await heading.innerText()).trim();
  expect(title, `${path} shows a page heading`).not.toBe('');
  expect(title, `${path} is a real page`).not.toBe('Page Not Found');
  // Let live queries settle before the accessibility scan: no request, no IndexedDB transaction open.
  const watched = work.get(page);
  if (!watched) throw new Error('visit() needs a page from signedIn()');
  await watched.settle();
  const found = await harness.axe(page);
  return found.length ? { [path]: found.map((v) => `${v.id} (${v.impact}): ${v.targets.slice(0, 3).join(' | ')}`) } : {};
}

/** Visits every path and then asserts, so one run reports every page's problems at once. */
async function walk(page: Page, paths: string[], how: 'load' | 'open') {
  let findings: Record<string, string[]> = {};
  for (const path of paths) findings = { ...findings, ...(await visit(page, path, h(), how)) };
  expect(findings, 'serious or critical axe violations').toEqual({});
}

function appErrors(page: Page): string[] {
  // The server's login page asks for /favicon.ico, which it does not serve: not the app's error.
  return h().errorsOf(page).filter((e) => !e.includes('/favicon.ico'));
}

describe('walk-through', () => {
  it('an admin reaches every page through the sidebar and by address', async () => {
    const page = await signedIn(DEMO.admin);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link').allInnerTexts()).resolves.toEqual([
      'Dashboard',
      'Participants',
      'Cohorts',
      'Programs & Sites',
      'Add Participant',
      'User Approvals',
      'Audit',
    ]);
    for (const [label, path] of [
      ['Participants', '/participants'],
      ['Cohorts', '/cohorts'],
      ['Programs & Sites', '/programssites'],
      ['Add Participant', '/addparticipant'],
      ['User Approvals', '/adminapprovals'],
      ['Audit', '/audit'],
      ['Dashboard', '/dashboard'],
    ]) {
      await nav.getByRole('link', { name: label }).click();
      await page.waitForURL((u) => u.pathname === path);
      await expect(nav.getByRole('link', { name: label }).getAttribute('aria-current')).resolves.toBe('page');
    }

    const ids = {
      participant: await firstId(page, 'Participant'),
      cohort: await firstId(page, 'Cohort'),
      program: await firstId(page, 'Program'),
      site: await firstId(page, 'Site'),
    };
    await walk(page, [
      '/',
      '/participants',
      '/addparticipant',
      `/participantdetail?id=${ids.participant}`,
      '/cohorts',
      '/addcohort',
      `/cohortdetail?id=${ids.cohort}`,
      '/programssites',
      `/programdetail?id=${ids.program}`,
      `/sitedetail?id=${ids.site}`,
      '/adminapprovals',
      // Mixed case works too.
      `/ParticipantDetail?id=${ids.participant}`,
    ], 'load');
    // An approved admin on ProfileSetup is sent to the Dashboard.
    await h().goto(page, '/profilesetup');
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(appErrors(page)).toEqual([]);
  });

  // The admin's walk loads every address; the coach's follows links (harness open), which costs no
  // page load and no PIN per page.
  it('a coach reaches every page but User Approvals and Audit', async () => {
    const page = await signedIn(DEMO.coach);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'User Approvals' }).count()).toBe(0);
    const participant = await firstId(page, 'Participant');
    const cohort = await firstId(page, 'Cohort');
    await walk(page, ['/', '/participants', `/participantdetail?id=${participant}`, '/cohorts', `/cohortdetail?id=${cohort}`, '/programssites'], 'open');
    await h().goto(page, '/adminapprovals');
    await page.getByText("You don't have permission to view this page").waitFor();
    // Issue #26: nor the audit trail, by sidebar or by address.
    expect(await nav.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    await h().goto(page, '/audit');
    await page.getByText("You don't have permission to view this page").waitFor();
    expect(appErrors(page)).toEqual([]);
  });

  it('the 404 screen: path named, Go Home, admin note only for admins', async () => {
    const coach = await signedIn(DEMO.coach);
    await h().goto(coach, '/no-such-page');
    await coach.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await coach.getByText('The page "no-such-page" could not be found in this application.').count()).toBe(1);
    expect(await coach.getByText('Admin Note').count()).toBe(0);
    expect(await h().axe(coach)).toEqual([]);
    await coach.getByRole('link', { name: 'Go Home' }).click();
    await coach.waitForURL((u) => u.pathname === '/');

    const admin = await signedIn(DEMO.admin);
    await h().goto(admin, '/old-bookmark');
    await admin.getByText('Admin Note').waitFor();
    expect(await h().axe(admin)).toEqual([]);
  });

  it('on a phone-sized screen the sidebar is a panel opened from the header and closed with Escape', async () => {
    const page = await signedIn(DEMO.coach, { width: 390, height: 844 });
    expect(await page.getByRole('complementary', { name: 'Sidebar' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const panel = page.getByRole('dialog', { name: 'Participant Management System' });
    await panel.waitFor();
    expect(await h().axe(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await panel.getByRole('link', { name: 'Cohorts' }).click();
    await page.waitForURL((u) => u.pathname === '/cohorts');
    await panel.waitFor({ state: 'detached' });
  });

  it('the desktop sidebar state survives a reload (cookie) and Ctrl+B toggles it', async () => {
    const page = await signedIn(DEMO.coach);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    expect(await sidebar.getAttribute('data-state')).toBe('expanded');
    await page.keyboard.press('Control+b');
    expect(await sidebar.getAttribute('data-state')).toBe('collapsed');
    // The width animates for 200 ms: wait for it to settle.
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(48); // 3rem
    await h().goto(page, '/cohorts');
    expect(await sidebar.getAttribute('data-state')).toBe('collapsed');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    expect(Math.round(cookie!.expires - Date.now() / 1000)).toBeGreaterThan(604_700);
    await page.keyboard.press('Control+b');
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(256); // 16rem
  });

  it('with reduced motion asked for, a spinner turns once and stops; without it, it keeps turning', async () => {
    // The harness asks for reduced motion in every context (CONTEXT_DEFAULTS), as a coach may.
    const page = await signedIn(DEMO.coach);
    // A loading spinner as the app draws one (Loader2 with Tailwind's animate-spin).
    const spins = () =>
      page.evaluate(() => {
        const el = document.createElement('span');
        el.className = 'animate-spin';
        document.body.append(el);
        const { animationName, animationIterationCount } = getComputedStyle(el);
        el.remove();
        return { animationName, animationIterationCount };
      });
    expect(await spins()).toEqual({ animationName: 'spin', animationIterationCount: '1' });
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    try {
      expect(await spins()).toEqual({ animationName: 'spin', animationIterationCount: 'infinite' });
    } finally {
      await page.emulateMedia({ reducedMotion: CONTEXT_DEFAULTS.reducedMotion });
    }
  });

  it('without a session the app sends the browser to the login page', async () => {
    const page = await h().newPage();
    await page.goto(`${h().baseUrl}/cohorts`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('from_url')).toBe(`${h().baseUrl}/cohorts`);
  });
});
