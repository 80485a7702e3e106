/**
 * Issue #23: CohortDetail (sessions, attendance panel) and ParticipantDetail (attendance card) at
 * the three viewports of issue #12, against the real server and the built app:
 *   npx vite build && npx tsx docs/screenshots/capture-attendance-detail.ts
 * Writes docs/screenshots/issue-23/{name}-{width}x{height}.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, DEMO, DEMO_PASSWORD } from '../../test/e2e/harness';
import { loginToken, serverRows, syncStatusRow } from '../../test/e2e/offline-world';

const OUT = join(import.meta.dirname, 'issue-23');
const VIEWPORTS = [
  { width: 1024, height: 768 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
] as const;
const full = process.argv.includes('--full');

async function until(ok: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const h = await startHarness();
try {
  mkdirSync(OUT, { recursive: true });
  const token = await loginToken(h.baseUrl, DEMO.admin, DEMO_PASSWORD);
  const attendance = await serverRows(h.baseUrl, token, 'Attendance', {}, 5000);
  const cohorts = await serverRows(h.baseUrl, token, 'Cohort');
  const coachCohorts = cohorts.filter((c) => c.lead_coach_email === DEMO.coach);
  const count = (id: unknown) => attendance.filter((a) => a.cohort_id === id).length;
  const cohort = [...coachCohorts].sort((a, b) => count(b.id) - count(a.id))[0] ?? cohorts[0];
  const absences = new Map<string, number>();
  for (const a of attendance) if (a.cohort_id === cohort.id && (a.status === 'absent' || a.status === 'excused')) absences.set(String(a.participant_id), (absences.get(String(a.participant_id)) ?? 0) + 1);
  const participantId = [...absences].sort((a, b) => b[1] - a[1])[0]?.[0];
  console.log(`cohort ${String(cohort.cohort_code)} (${count(cohort.id)} records), participant ${participantId}`);

  const admin = await h.newPage({ viewport: { ...VIEWPORTS[0] } });
  await h.signIn(admin, DEMO.admin);
  await until(async () => ((await syncStatusRow(admin))?.lastSyncedAt ?? null) !== null);
  const coach = await h.newPage({ viewport: { ...VIEWPORTS[0] } });
  await h.signIn(coach, DEMO.coach);
  await until(async () => ((await syncStatusRow(coach))?.lastSyncedAt ?? null) !== null);

  type Page = typeof admin;
  const shots: Array<{ name: string; page: Page; path: string; then?: (p: Page) => Promise<void>; all?: boolean }> = [
    { name: 'cohort-detail-admin', page: admin, path: `/cohortdetail?id=${cohort.id}`, all: true },
    {
      name: 'cohort-detail-sessions',
      page: admin,
      path: `/cohortdetail?id=${cohort.id}`,
      all: true,
      then: async (p) => p.getByRole('heading', { name: /^Sessions \(/ }).evaluate((e) => {
        e.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -72); // under the sticky header
      }),
    },
    {
      name: 'cohort-detail-attendance-panel',
      page: admin,
      path: `/cohortdetail?id=${cohort.id}`,
      all: true,
      then: async (p) => p.getByRole('heading', { name: 'Attendance', exact: true }).evaluate((e) => {
        e.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -72); // under the sticky header
      }),
    },
    { name: 'cohort-detail-lead-coach', page: coach, path: `/cohortdetail?id=${cohort.id}` },
    {
      name: 'cohort-detail-add-session',
      page: coach,
      path: `/cohortdetail?id=${cohort.id}`,
      then: async (p) => {
        await p.getByRole('button', { name: 'Add Session' }).click();
        await p.getByRole('form', { name: 'Add session' }).getByRole('button', { name: 'Add Session' }).click();
        await p.getByRole('form', { name: 'Add session' }).scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'cohort-detail-generate-weekly',
      page: admin,
      path: `/cohortdetail?id=${cohort.id}`,
      then: async (p) => {
        await p.getByRole('button', { name: 'Generate weekly sessions' }).click();
        await p.getByRole('dialog').getByRole('region', { name: 'Preview' }).waitFor();
      },
    },
    {
      name: 'cohort-detail-delete-with-attendance',
      page: admin,
      path: `/cohortdetail?id=${cohort.id}`,
      then: async (p) => {
        await p.getByRole('button', { name: /^Delete Session/ }).first().click();
        await p.getByRole('dialog').getByRole('button', { name: 'Delete' }).waitFor();
      },
    },
    { name: 'participant-detail', page: coach, path: `/participantdetail?id=${participantId}`, all: true },
    {
      name: 'participant-detail-attendance',
      page: coach,
      path: `/participantdetail?id=${participantId}`,
      all: true,
      then: async (p) => p.getByRole('heading', { name: 'Quick Stats' }).evaluate((e) => {
        e.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -72); // under the sticky header
      }),
    },
  ];
  for (const viewport of VIEWPORTS) {
    for (const shot of shots) {
      if (!shot.all && viewport !== VIEWPORTS[0]) continue;
      await shot.page.setViewportSize({ ...viewport });
      await h.goto(shot.page, shot.path);
      await shot.page.getByRole('heading', { name: 'Attendance', exact: true }).waitFor();
      await shot.page.waitForTimeout(600);
      await shot.then?.(shot.page);
      await shot.page.mouse.move(0, viewport.height - 1);
      await shot.page.waitForTimeout(500);
      await shot.page.screenshot({ path: join(OUT, `${shot.name}-${viewport.width}x${viewport.height}.png`), fullPage: full });
    }
  }
  console.log(`screenshots written to ${OUT}`);
} finally {
  await h.stop();
}
