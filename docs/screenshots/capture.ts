/**
 * Takes the README's screenshots (1024×768) against the real server and the built app:
 *   npx vite build && npx tsx docs/screenshots/capture.ts            (all)
 *   npx vite build && npx tsx docs/screenshots/capture.ts issue-12   (only issue-12/, see below)
 * offline-participants.png — the Participants page with the connection cut and changes queued;
 * sync-page.png — the Sync page with a refused change, a conflict and changes waiting.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, DEMO, DEMO_PASSWORD } from '../../test/e2e/harness';
import { addParticipant, editParticipantField, loginToken, outbox, serverRows, serverUpdate, serviceWorkerReady, syncStatusRow, tokenOf } from '../../test/e2e/offline-world';

const OUT = import.meta.dirname;

/** Polls until `ok` (vitest's expect.poll works only inside a test run). */
async function until(ok: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const only = process.argv[2];

/** Issue #12: every page it changed, at the three viewports coaches and admins use. */
const VIEWPORTS = [
  { width: 1024, height: 768 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
] as const;

async function issue12(h: Awaited<ReturnType<typeof startHarness>>): Promise<void> {
  const dir = join(OUT, 'issue-12');
  mkdirSync(dir, { recursive: true });
  const coach = await h.newPage({ viewport: { ...VIEWPORTS[0] } });
  await h.signIn(coach, DEMO.coach);
  await until(async () => ((await syncStatusRow(coach))?.lastSyncedAt ?? null) !== null);
  const admin = await h.newPage({ viewport: { ...VIEWPORTS[0] } });
  await h.signIn(admin, DEMO.admin);
  await until(async () => ((await syncStatusRow(admin))?.lastSyncedAt ?? null) !== null);
  const rejected = await h.newPage({ viewport: { ...VIEWPORTS[0] } });
  await h.signIn(rejected, DEMO.rejected);
  const token = await tokenOf(coach);
  const [participant] = await serverRows(h.baseUrl, token, 'Participant');
  const cohorts = await serverRows(h.baseUrl, token, 'Cohort');
  const cohort = cohorts[0];

  type Shot = { name: string; page: typeof coach; path: string; then?: (page: typeof coach) => Promise<void> };
  const shots: Shot[] = [
    { name: 'dashboard', page: coach, path: '/' },
    { name: 'participants-search', page: coach, path: '/participants?q=a&status=active' },
    {
      name: 'participant-edit-sticky-save',
      page: coach,
      path: `/participantdetail?id=${participant.id}`,
      then: async (page) => {
        await page.getByRole('button', { name: 'Edit Profile' }).click();
        await page.getByRole('form', { name: 'Edit participant' }).waitFor();
      },
    },
    { name: 'cohorts-search', page: coach, path: '/cohorts?status=active' },
    { name: 'cohort-detail', page: coach, path: `/cohortdetail?id=${cohort.id}` },
    {
      name: 'cohort-detail-unenroll-confirm',
      page: coach,
      path: `/cohortdetail?id=${cohort.id}`,
      then: async (page) => {
        await page.getByRole('button', { name: /^Unenroll / }).first().click();
        await page.getByRole('dialog').getByRole('button', { name: 'Unenroll' }).waitFor();
      },
    },
    {
      name: 'add-cohort-duplicate-code',
      page: admin,
      path: `/addcohort?program_id=${cohort.program_id}`,
      then: async (page) => {
        await page.getByLabel('Cohort Code *').fill(String(cohort.cohort_code));
        await page.getByRole('alert').first().waitFor();
      },
    },
    { name: 'programs-sites', page: admin, path: '/programssites' },
    { name: 'program-detail', page: admin, path: `/programdetail?id=${cohort.program_id}` },
    { name: 'site-detail', page: admin, path: `/sitedetail?id=${cohort.site_id}` },
    {
      name: 'admin-approvals-rejected',
      page: admin,
      path: '/adminapprovals',
      then: async (page) => {
        await page.getByLabel('Show').selectOption('rejected');
        await page.getByRole('article').first().waitFor();
      },
    },
    { name: 'profile-setup-rejected', page: rejected, path: '/profilesetup' },
    { name: 'not-found', page: coach, path: '/no-such-page' },
    { name: 'sync-page', page: coach, path: '/sync' },
  ];
  for (const viewport of VIEWPORTS) {
    for (const shot of shots) {
      await shot.page.setViewportSize({ ...viewport });
      await h.goto(shot.page, shot.path);
      await shot.page.waitForTimeout(400);
      await shot.then?.(shot.page);
      await shot.page.mouse.move(0, viewport.height - 1);
      await shot.page.waitForTimeout(500);
      await shot.page.screenshot({ path: join(dir, `${shot.name}-${viewport.width}x${viewport.height}.png`) });
    }
  }
  console.log(`${VIEWPORTS.length * shots.length} screenshots written to docs/screenshots/issue-12/`);
}

/** The README's two offline pictures. */
async function readme(h: Awaited<ReturnType<typeof startHarness>>): Promise<void> {
  const page = await h.newPage({ viewport: { width: 1024, height: 768 } });
  await h.signIn(page, DEMO.coach);
  await serviceWorkerReady(page);
  await until(async () => ((await syncStatusRow(page))?.lastSyncedAt ?? null) !== null);
  const token = await tokenOf(page);
  const admin = await loginToken(h.baseUrl, DEMO.admin, DEMO_PASSWORD);
  const [a, b] = await serverRows(h.baseUrl, token, 'Participant');

  // A conflict (admin and coach change one phone) and a refusal (a 70 KB address), synced.
  await page.context().setOffline(true);
  await editParticipantField(page, h.baseUrl, a.id, 'Phone', '(555) 000-1111');
  await editParticipantField(page, h.baseUrl, b.id, 'Current Address', 'x'.repeat(70_000));
  await serverUpdate(h.baseUrl, admin, 'Participant', a.id, { phone: '(555) 999-2222' });
  await page.context().setOffline(false);
  await until(async () => (await outbox(page)).filter((o) => o.state !== 'rejected').length === 0);

  // Then offline again, with new work queued.
  await page.context().setOffline(true);
  await addParticipant(page, h.baseUrl, 'Marisol', 'Quintana');
  await addParticipant(page, h.baseUrl, 'Dario', 'Whitfield');
  await page.reload();
  await page.locator('[data-app-ready]').first().waitFor();
  await page.getByText('Marisol Quintana').first().waitFor();
  await page.mouse.move(0, 767);
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(OUT, 'offline-participants.png') });

  await h.goto(page, '/sync');
  await page.getByRole('heading', { name: /^Conflicts/ }).waitFor();
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(OUT, 'sync-page.png') });
  console.log('screenshots written to docs/screenshots/');
}

const h = await startHarness();
try {
  if (only !== 'issue-12') await readme(h);
  await issue12(h);
} finally {
  await h.stop();
}
