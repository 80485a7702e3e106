import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, within } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { INITIAL_STATUS } from '../../../src/data/sync/status-store';
import { SYNC_STATUS_KEY, type EntityFirstSync, type SyncStatusRow } from '../../../src/data/sync/types';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { CohortsPage } from '../../../src/screens/cohorts/cohorts-page';
import { DashboardPage } from '../../../src/screens/dashboard/dashboard-page';
import { ParticipantDetailPage } from '../../../src/screens/participant-detail/participant-detail-page';
import { ParticipantsPage } from '../../../src/screens/participants/participants-page';
import { ProgramsSitesPage } from '../../../src/screens/programs-sites/programs-sites-page';
import { clearDb, renderPage } from '../render-page';

// Issue #9.5: until every entity a page reads has completed its first pull, the page must not
// present the mirror's (empty or partial) rows as the whole truth.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

const OFFLINE_CUT = 'Not all data is on this tablet yet: connect to finish';

const progress = (entity: EntityFirstSync['entity'], done: boolean, rows = 0, total: number | null = null): EntityFirstSync => ({ entity, done, rows, total });

/** Pull order of the engine: Program, Site, User, Cohort, Participant, Enrollment, Session, Outcome. */
const HALF_WAY: EntityFirstSync[] = [
  progress('Program', true, 3, 3),
  progress('Site', true, 2, 2),
  progress('User', true, 4, null),
  progress('Cohort', true, 2, 2),
  progress('Participant', false, 4000, 10000),
  progress('Enrollment', false),
  progress('Session', false),
  progress('Outcome', false),
];

async function setStatus(patch: Partial<SyncStatusRow>) {
  await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, ...patch } });
}
const downloading = () => setStatus({ syncing: true, firstSync: HALF_WAY });
const cutOffline = () => setStatus({ online: false, firstSync: HALF_WAY });

const notice = () => screen.findByTestId('first-sync-notice');

describe('Dashboard during the first sync', () => {
  it('keeps the 4 skeleton cards under the progress line, then shows the totals when done', async () => {
    await downloading();
    await db.participants.bulkPut([{ id: 'p1', first_name: 'Maria', last_name: 'Lopez', custody_status: 'in-custody' }]);
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    expect(await notice()).toHaveTextContent('Downloading participants… 4,000 of 10,000');
    expect(within(screen.getByRole('status', { name: 'Loading overview' })).getAllByTestId('skeleton-card')).toHaveLength(4);
    expect(screen.queryByText('Total Participants')).not.toBeInTheDocument();
    expect(screen.queryByText('No enrollments yet')).not.toBeInTheDocument();
    expect(screen.queryByText('No upcoming releases')).not.toBeInTheDocument();

    await setStatus({ firstSync: HALF_WAY.map((e) => ({ ...e, done: true })), firstSyncComplete: true, lastSyncedAt: Date.now() });
    expect(await screen.findByText('Total Participants')).toBeInTheDocument();
    expect(screen.queryByTestId('first-sync-notice')).not.toBeInTheDocument();
  });

  it('with an engine that reports no per-entity progress, says Downloading data… without naming an entity', async () => {
    await setStatus({ syncing: true, firstSync: [] });
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    expect(await notice()).toHaveTextContent('Downloading data…');
    expect(screen.getByTestId('first-sync-notice')).not.toHaveTextContent(/Downloading (programs|participants)/);
    expect(screen.queryByText('Total Participants')).not.toBeInTheDocument();
  });

  it('offline with the download cut off, says so and what is missing', async () => {
    await cutOffline();
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    expect(await notice()).toHaveTextContent(OFFLINE_CUT);
    expect(screen.getByTestId('first-sync-notice')).toHaveTextContent('Still to download: participants and enrollments.');
    expect(screen.queryByText('Total Participants')).not.toBeInTheDocument();
  });
});

describe('Participants during the first sync', () => {
  it('shows 6 skeletons and the progress, never "No participants found" with an Add button', async () => {
    await setStatus({ syncing: true, firstSync: [progress('Program', true, 1, 1), progress('Participant', false, 0, null)] });
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    expect(await notice()).toHaveTextContent('Downloading participants…');
    expect(within(screen.getByRole('status', { name: 'Loading participants' })).getAllByTestId('skeleton-card')).toHaveLength(6);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByText('No participants found')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Add Participant/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/^\d+ participants?$/)).not.toBeInTheDocument();
  });

  it('once every participant and cohort is here, shows the cards and their count while enrollments still download', async () => {
    await setStatus({
      syncing: true,
      firstSync: [progress('Participant', true, 1, 1), progress('Cohort', true, 0, 0), progress('Enrollment', false, 4000, 30000)],
    });
    await db.participants.bulkPut([{ id: 'p1', first_name: 'Maria', last_name: 'Lopez', enrollment_date: '2025-01-01' }]);
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    expect(await screen.findByRole('link', { name: /Maria Lopez/ })).toBeInTheDocument();
    expect(screen.getByText('1 participant')).toBeInTheDocument();
    expect(await notice()).toHaveTextContent('Downloading enrollments…');
  });

  it('a coach approved after push-only cycles (lastSyncedAt set) still sees the download, not an empty list', async () => {
    await setStatus({ syncing: true, lastSyncedAt: Date.now() - 60_000, firstSync: [progress('Participant', false, 0, 10000), progress('Cohort', false)] });
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    expect(await notice()).toHaveTextContent('Downloading participants…');
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByText('No participants found')).not.toBeInTheDocument();
  });

  it('offline and cut off: what arrived, without a count that would pass for the total', async () => {
    await cutOffline();
    await db.participants.bulkPut([{ id: 'p1', first_name: 'Maria', last_name: 'Lopez', enrollment_date: '2025-01-01' }]);
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    expect(await notice()).toHaveTextContent(OFFLINE_CUT);
    expect(await screen.findByRole('link', { name: /Maria Lopez/ })).toBeInTheDocument();
    expect(screen.queryByText('1 participant')).not.toBeInTheDocument();
  });

  it('offline and cut off with nothing here yet: the notice, no empty state and no Add button', async () => {
    await cutOffline();
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    expect(await notice()).toHaveTextContent(OFFLINE_CUT);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByText('No participants found')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Add Participant/ })).not.toBeInTheDocument();
  });
});

describe('Cohorts and Programs & Sites during the first sync', () => {
  it('never says "Create your first cohort" while cohorts are still downloading', async () => {
    await setStatus({ syncing: true, firstSync: [progress('Program', true, 2, 2), progress('Site', false, 10, 200), progress('Cohort', false)] });
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    expect(await notice()).toHaveTextContent('Downloading sites… 10 of 200');
    expect(within(screen.getByRole('status', { name: 'Loading cohorts' })).getAllByTestId('skeleton-card')).toHaveLength(6);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByText('Create your first cohort to get started')).not.toBeInTheDocument();
  });

  it('offline and cut off before cohorts: the notice instead of the empty state', async () => {
    await setStatus({ online: false, firstSync: [progress('Program', true, 2, 2), progress('Site', true, 1, 1), progress('Cohort', false, 0, 1000)] });
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    expect(await notice()).toHaveTextContent(OFFLINE_CUT);
    expect(screen.getByTestId('first-sync-notice')).toHaveTextContent('Still to download: cohorts and enrollments.');
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByText('No cohorts yet')).not.toBeInTheDocument();
  });

  it('Programs & Sites keeps its skeletons instead of "Create your first program"', async () => {
    await setStatus({ syncing: true, firstSync: [progress('Program', false, 0, 50)] });
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites' });
    expect(await notice()).toHaveTextContent('Downloading programs… 0 of 50');
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByText('No programs yet')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Programs (…)' })).toBeInTheDocument();
  });
});

describe('Detail pages during the first sync', () => {
  it('an id not downloaded yet is not "Participant not found"; once complete it is', async () => {
    await downloading();
    await renderPage(<ParticipantDetailPage id="p-later" />, { at: 'ParticipantDetail', id: 'p-later' });
    expect(await notice()).toHaveTextContent('Downloading participants… 4,000 of 10,000');
    expect(screen.getByRole('status', { name: 'Loading participant' })).toBeInTheDocument();
    expect(screen.queryByText('Participant not found')).not.toBeInTheDocument();

    await setStatus({ online: false, firstSync: HALF_WAY });
    expect(await screen.findByText(OFFLINE_CUT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Participants/ })).toBeInTheDocument();
    expect(screen.queryByText('Participant not found')).not.toBeInTheDocument();

    await setStatus({ firstSyncComplete: true, lastSyncedAt: Date.now() });
    expect(await screen.findByText('Participant not found')).toBeInTheDocument();
  });

  it('a cohort that is here shows, with the notice that its enrollments are not all here', async () => {
    await cutOffline();
    await db.cohorts.put({ id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2025Q1', status: 'active' });
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
    expect(await screen.findByRole('heading', { name: /FL-SQ-2025Q1/ })).toBeInTheDocument();
    // The cohort's own query may answer before the sync status does (a few ms).
    expect(await screen.findByTestId('first-sync-notice')).toHaveTextContent('Still to download: participants, enrollments and sessions.');
  });
});

describe('A tablet that finished its first sync', () => {
  it('never flashes the first-sync notice, also when it synced before progress was recorded', async () => {
    // Only lastSyncedAt: the status of a device that synced before first-sync progress existed.
    await setStatus({ lastSyncedAt: Date.now() - 86_400_000 });
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    // First commit: the status is not read yet — skeletons, no claim either way.
    expect(screen.getByRole('status', { name: 'Loading cohorts' })).toBeInTheDocument();
    expect(screen.queryByTestId('first-sync-notice')).not.toBeInTheDocument();
    expect(await screen.findByText('Create your first cohort to get started')).toBeInTheDocument();
    expect(screen.queryByTestId('first-sync-notice')).not.toBeInTheDocument();
  });
});

describe('attendance figures during the first sync (issue #23.4)', () => {
  /** The Attendance panel (a Panel: its heading, in the panel's header, in the panel). */
  const attendancePanel = async () => within((await screen.findByRole('heading', { name: 'Attendance' })).parentElement!.parentElement!);
  const seed = async () => {
    await db.participants.put({ id: 'p1', first_name: 'Maria', last_name: 'Lopez', custody_status: 'in-custody' });
    await db.programs.put({ id: 'g1', program_name: 'Money Basics', active: true });
    await db.sites.put({ id: 's1', site_name: 'Camp 9', active: true });
    await db.cohorts.put({ id: 'c1', program_id: 'g1', site_id: 's1', cohort_code: 'MB-C9-2026Q1', status: 'active' });
    await db.enrollments.put({ id: 'e1', participant_id: 'p1', cohort_id: 'c1', enrollment_status: 'active' });
  };
  // Everything the detail pages read is in; attendance (the last stage of a scoped pull) is not.
  const attendanceMissing = (online: boolean) =>
    setStatus({
      online,
      syncing: online,
      firstSync: ['Program', 'Site', 'User', 'Cohort', 'Participant', 'Enrollment', 'Session', 'Outcome'].map((e) => progress(e as EntityFirstSync['entity'], true)).concat(progress('Attendance', false)),
    });

  it('offline, ParticipantDetail and CohortDetail say attendance is not all here, never "No attendance taken yet"', async () => {
    await seed();
    await attendanceMissing(false);
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    const card = await attendancePanel();
    expect(await card.findByText(OFFLINE_CUT)).toBeInTheDocument();
    expect(card.queryByText('No attendance taken yet')).not.toBeInTheDocument();
    cleanup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
    const panel = await attendancePanel();
    expect(await panel.findByText(OFFLINE_CUT)).toBeInTheDocument();
    expect(panel.queryByText('No attendance taken yet')).not.toBeInTheDocument();
  });

  it('once attendance is in, an empty record says so', async () => {
    await seed();
    await setStatus({ firstSyncComplete: true, lastSyncedAt: Date.now(), firstSync: [progress('Attendance', true)] });
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    expect(await (await attendancePanel()).findByText('No attendance taken yet')).toBeInTheDocument();
  });
});
