import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, setupHarness, passDeviceLock } from './harness';
import { coachScope, eventually, fullName, outbox, serverRows, serviceWorkerReady, toast, tokenOf, type Row } from './offline-world';

/**
 * Issue #5.6, the coach's day without a connection, in Chromium against the real server: sign in
 * online; the connection is cut; every page still opens (deep links too); the coach adds a
 * participant, enrols them, edits another, unenrols a third; a reload keeps all four changes;
 * the connection returns and within 10 s the server has each change exactly once, the new
 * enrollment pointing at the new participant's server id.
 */
// On PGlite, as `npm start` runs: the offline round trip against the default store (test/support/test-databases.ts).
const h = setupHarness({ store: 'pglite' });

interface World {
  cohort: Row;
  unenrolled: { enrollment: Row; participant: Row };
  edited: Row;
  program: Row;
  site: Row;
}

/** Picks the records of the story from what the demo seed put on the server. */
async function pickWorld(token: string): Promise<World> {
  const base = h().baseUrl;
  // Issue #22: the coach's tablet holds the sites of their cohorts; the story stays within them.
  const [{ cohorts, participants }, enrollments, programs, sites] = await Promise.all([
    coachScope(base, token),
    serverRows(base, token, 'Enrollment', { enrollment_status: 'active' }, 5000),
    serverRows(base, token, 'Program'),
    serverRows(base, token, 'Site'),
  ]);
  // Names that appear once on the coach's tablet: the roster's buttons are found by name.
  const named = (p: Row) => participants.filter((o) => fullName(o) === fullName(p)).length === 1;
  const byId = new Map(participants.filter(named).map((p) => [p.id, p]));
  const enrollment = enrollments.find((e) => cohorts.some((c) => c.id === e.cohort_id) && byId.has(String(e.participant_id)));
  if (!enrollment) throw new Error('the demo seed has no active enrollment');
  const cohort = cohorts.find((c) => c.id === enrollment.cohort_id)!;
  const participant = byId.get(String(enrollment.participant_id))!;
  const edited = participants.filter(named).find((p) => p.id !== participant.id)!;
  return { cohort, unenrolled: { enrollment, participant }, edited, program: programs[0], site: sites[0] };
}

/** Every page path of spec 2.1 (detail pages with a real id) and the text that proves it rendered. */
function pagesOf(w: World): Array<[string, string]> {
  return [
    ['/', 'Dashboard'],
    ['/dashboard', 'Dashboard'],
    ['/participants', 'Participants'],
    ['/addparticipant', 'Add New Participant'],
    [`/participantdetail?id=${w.edited.id}`, fullName(w.edited)],
    ['/cohorts', 'Cohorts'],
    ['/addcohort', 'Create New Cohort'],
    [`/cohortdetail?id=${w.cohort.id}`, String(w.cohort.cohort_code)],
    ['/programssites', 'Programs & Sites'],
    [`/programdetail?id=${w.program.id}`, String(w.program.program_name)],
    [`/sitedetail?id=${w.site.id}`, String(w.site.site_name)],
    // An approved coach is sent on to the Dashboard (spec 2.14), offline too.
    ['/profilesetup', 'Dashboard'],
    ['/adminapprovals', "You don't have permission to view this page"],
    ['/ProgramsSites', 'Programs & Sites'],
    ['/sync', 'Sync'],
  ];
}

async function heading(page: Page, text: string) {
  await page.getByRole('heading', { level: 1, name: text }).first().waitFor({ timeout: 15_000 });
}

describe('offline, a coach’s day (issue #5.6)', () => {
  it('every page opens offline; four changes made offline survive a reload and reach the server exactly once', async () => {
    const page = await h().newPage({ viewport: { width: 1024, height: 768 } });
    await h().signIn(page, DEMO.coach);
    await serviceWorkerReady(page);
    const token = await tokenOf(page);
    const w = await pickWorld(token);

    // The first sync fills the mirror (the cohort's roster shows the participant to unenrol).
    await h().goto(page, `/cohortdetail?id=${w.cohort.id}`);
    await page.getByRole('button', { name: `Unenroll ${fullName(w.unenrolled.participant)}` }).waitFor({ timeout: 30_000 });

    // The connection is cut; the app reloads and every page still opens, deep links included.
    await page.context().setOffline(true);
    await page.reload();
    await passDeviceLock(page);
    for (const [path, text] of pagesOf(w)) {
      await h().goto(page, path);
      await heading(page, text);
      expect(await page.getByText('Page Not Found').count(), path).toBe(0);
    }

    // 1. Add a participant.
    const last = `Offline-${Date.now().toString(36)}`;
    await h().open(page, '/addparticipant');
    await page.getByLabel('First Name *', { exact: true }).fill('Marisol');
    await page.getByLabel('Last Name *', { exact: true }).fill(last);
    await page.getByRole('button', { name: 'Add Participant' }).click();
    await toast(page, 'Participant added successfully!');
    await page.waitForURL((url) => url.pathname === '/participants');

    // 2. Enrol them in the cohort.
    await h().open(page, `/cohortdetail?id=${w.cohort.id}`);
    await page.getByRole('button', { name: 'Enroll Participant' }).click();
    await page.getByLabel('Search Participant').fill(last);
    await page.getByRole('list', { name: 'Matching participants' }).getByRole('button', { name: new RegExp(last) }).click();
    await page.getByRole('form', { name: 'Enroll a participant' }).getByRole('button', { name: 'Enroll Participant' }).click();
    await toast(page, 'Participant enrolled successfully!');

    // 3. Unenrol a third participant from the same cohort.
    await page.getByRole('button', { name: `Unenroll ${fullName(w.unenrolled.participant)}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unenroll' }).click(); // issue #12.1
    await toast(page, 'Participant unenrolled');

    // 4. Edit another participant.
    const phone = '(555) 010-2026';
    await h().open(page, `/participantdetail?id=${w.edited.id}`);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByRole('form', { name: 'Edit participant' }).getByLabel('Phone', { exact: true }).fill(phone);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Participant updated successfully!');

    // Reload, still offline: everything is still there, and 4 changes wait.
    await page.reload();
    await passDeviceLock(page);
    await page.getByText(phone).first().waitFor();
    await h().open(page, `/cohortdetail?id=${w.cohort.id}`);
    await page.getByRole('button', { name: `Unenroll Marisol ${last}` }).waitFor();
    expect(await page.getByRole('button', { name: `Unenroll ${fullName(w.unenrolled.participant)}` }).count()).toBe(0);
    const queued = await outbox(page);
    expect(queued.map((o) => `${o.entity} ${o.kind}`).sort()).toEqual(['Enrollment create', 'Enrollment update', 'Participant create', 'Participant update']);
    // 'inflight' is allowed: the engine keeps trying while offline, and each try fails at once.
    expect(queued.filter((o) => o.state === 'rejected')).toEqual([]);
    // Nothing reached the server while offline.
    expect(await serverRows(h().baseUrl, token, 'Participant', { last_name: last })).toEqual([]);

    // The connection returns: within 10 s everything is on the server exactly once.
    const back = Date.now();
    await page.context().setOffline(false);
    await eventually(async () => (await outbox(page)).length, 10_000).toBe(0);
    const syncedIn = Date.now() - back;
    const created = await serverRows(h().baseUrl, token, 'Participant', { last_name: last });
    expect(created).toHaveLength(1);
    const enrolled = await serverRows(h().baseUrl, token, 'Enrollment', { cohort_id: w.cohort.id, participant_id: created[0].id });
    expect(enrolled).toHaveLength(1);
    expect(enrolled[0]).toMatchObject({ enrollment_status: 'active', participant_id: created[0].id });
    expect((await serverRows(h().baseUrl, token, 'Participant', { id: w.edited.id }))[0].phone).toBe(phone);
    expect((await serverRows(h().baseUrl, token, 'Enrollment', { id: w.unenrolled.enrollment.id }))[0].enrollment_status).toBe('withdrawn');
    console.log(`offline changes on the server ${syncedIn} ms after the connection returned`);

    // The open page followed the new participant's server id (S2): its roster link points at it.
    await page.getByRole('link', { name: new RegExp(`Marisol ${last}`) }).first().waitFor();
    expect(await page.getByRole('link', { name: new RegExp(`Marisol ${last}`) }).first().getAttribute('href')).toContain(created[0].id);
    expect(h().errorsOf(page).filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|favicon/.test(e))).toEqual([]);
  });
});
