import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, within, cleanup } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { DashboardPage } from '../../../src/screens/dashboard/dashboard-page';
import { clearDb, renderPage } from '../render-page';

beforeEach(clearDb);
afterEach(cleanup);

async function seed() {
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Maria', last_name: 'Lopez', custody_status: 'in-custody', projected_release_date: '2026-03-01' },
    { id: 'p2', first_name: 'James', last_name: 'Carter', custody_status: 'in-custody', projected_release_date: '2025-12-15' },
    { id: 'p3', first_name: 'Ana', last_name: 'Ruiz', custody_status: 'released', projected_release_date: '2024-01-01' },
    { id: 'p4', first_name: 'Dee', last_name: 'Walker', custody_status: 'in-custody' },
  ]);
  await db.cohorts.bulkPut([
    { id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2025Q1', status: 'active' },
    { id: 'c2', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2025Q3', status: 'planned' },
  ]);
  await db.programs.bulkPut([
    { id: 'pr1', program_name: 'Financial Literacy', active: true },
    { id: 'pr2', program_name: 'Old Program', active: false },
  ]);
  await db.enrollments.bulkPut([
    { id: 'e1', participant_id: 'p1', cohort_id: 'c1', intake_date: '2025-01-05', enrollment_status: 'active', created_date: '2025-01-05T10:00:00Z' },
    { id: 'e2', participant_id: 'p2', cohort_id: 'c1', intake_date: null, enrollment_status: 'graduated', created_date: '2025-01-06T10:00:00Z' },
    { id: 'e3', participant_id: 'gone', cohort_id: 'gone-cohort', intake_date: '2025-02-01', enrollment_status: 'active', created_date: '2025-02-01T10:00:00Z' },
  ]);
}

describe('DashboardPage (spec 2.4)', { timeout: 30_000 }, () => {
  it('shows the header and 4 skeleton cards before the counts arrive', async () => {
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Reentry Academy Overview')).toBeInTheDocument();
    const loading = screen.getByRole('status', { name: 'Loading overview' });
    expect(within(loading).getAllByTestId('skeleton-card')).toHaveLength(4);
    expect(await screen.findByText('Total Participants')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading overview' })).not.toBeInTheDocument();
  });

  it('shows the four stat cards with their values, subtitles and links', async () => {
    await seed();
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    const total = (await screen.findByText('Total Participants')).closest('a')!;
    expect(total).toHaveAttribute('href', '/participants');
    expect(within(total).getByText('4')).toBeInTheDocument();
    expect(within(total).getByText('3 in custody • 1 released')).toBeInTheDocument();

    const cohorts = screen.getByText('Active Cohorts').closest('a')!;
    expect(cohorts).toHaveAttribute('href', '/cohorts');
    expect(within(cohorts).getByText('1')).toBeInTheDocument();
    expect(within(cohorts).getByText('2 total cohorts')).toBeInTheDocument();

    const programs = screen.getByText('Programs').closest('a')!;
    expect(programs).toHaveAttribute('href', '/programssites');
    expect(within(programs).getByText('1')).toBeInTheDocument();
    expect(within(programs).getByText('Active programs')).toBeInTheDocument();

    const enrollments = screen.getByText('Active Enrollments').closest('a')!;
    expect(enrollments).toHaveAttribute('href', '/participants');
    expect(within(enrollments).getByText('2')).toBeInTheDocument();
    expect(within(enrollments).getByText('1 graduated')).toBeInTheDocument();
  });

  it('lists recent enrollments newest first with the fallbacks, linking to the participant', async () => {
    await seed();
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    const panel = (await screen.findByRole('heading', { name: 'Recent Enrollments' })).parentElement!.parentElement!;
    const rows = await within(panel).findAllByRole('link');
    // Each row shows its enrollment's status (issue #12.8).
    expect(rows.map((r) => r.textContent)).toEqual([
      'ParticipantCohortactiveFeb 1, 2025',
      'James CarterFL-SQ-2025Q1graduatedRecently',
      'Maria LopezFL-SQ-2025Q1activeJan 5, 2025',
    ]);
    expect(rows[1]).toHaveAttribute('href', '/participantdetail?id=p2');
  });

  it('lists upcoming releases: in custody with a date, earliest first', async () => {
    await seed();
    const { router } = await renderPage(<DashboardPage />, { at: 'Dashboard' });
    const panel = (await screen.findByRole('heading', { name: 'Upcoming Releases' })).parentElement!.parentElement!;
    const rows = await within(panel).findAllByRole('link');
    expect(rows.map((r) => r.textContent)).toEqual(['James CarterProjected: Dec 15, 2025', 'Maria LopezProjected: Mar 1, 2026']);
    await userEvent.click(rows[0]);
    expect(await screen.findByText('Now on ParticipantDetail (id p2)')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/participantdetail');
  });

  it('shows at most 5 rows in each panel', async () => {
    await db.participants.bulkPut(
      Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, first_name: `P${i}`, last_name: 'X', custody_status: 'in-custody' as const, projected_release_date: `2026-01-0${i + 1}` })),
    );
    await db.enrollments.bulkPut(
      Array.from({ length: 8 }, (_, i) => ({ id: `e${i}`, participant_id: `p${i}`, cohort_id: 'c', enrollment_status: 'active' as const, created_date: `2025-01-0${i + 1}T00:00:00Z` })),
    );
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    const recent = (await screen.findByRole('heading', { name: 'Recent Enrollments' })).parentElement!.parentElement!;
    const recentRows = await within(recent).findAllByRole('link');
    expect(recentRows).toHaveLength(5);
    expect(recentRows[0]).toHaveTextContent('P7 X');
    const releases = screen.getByRole('heading', { name: 'Upcoming Releases' }).parentElement!.parentElement!;
    const releaseRows = await within(releases).findAllByRole('link');
    expect(releaseRows).toHaveLength(5);
    expect(releaseRows[0]).toHaveTextContent('P0 X');
  });

  it('shows the empty states', async () => {
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    expect(await screen.findByText('No enrollments yet')).toBeInTheDocument();
    expect(screen.getByText('No upcoming releases')).toBeInTheDocument();
  });

  it('updates live when a participant is added', async () => {
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    const total = (await screen.findByText('Total Participants')).closest('a')!;
    expect(within(total).getByText('0 in custody • 0 released')).toBeInTheDocument();
    await db.participants.put({ id: 'new', first_name: 'New', last_name: 'Person', custody_status: 'released' });
    expect(await within(total).findByText('0 in custody • 1 released')).toBeInTheDocument();
  });
});
