import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { CohortsPage } from '../../../src/screens/cohorts/cohorts-page';
import { clearDb, renderPage } from '../render-page';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

async function seed() {
  await db.programs.bulkPut([{ id: 'pr1', program_name: 'Financial Literacy', active: true }]);
  await db.sites.bulkPut([{ id: 's1', site_name: 'San Quentin', site_type: 'prison', active: true }]);
  await db.cohorts.bulkPut([
    { id: 'c-old', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2024Q1', start_date: '2024-01-10', end_date: '2024-04-01', capacity: 12, status: 'completed' },
    { id: 'c-new', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2025Q3', start_date: '2025-07-01', capacity: null, status: 'active' },
    { id: 'c-blank', program_id: 'pr1', site_id: 's1', cohort_code: '', start_date: null, capacity: 20, status: null },
  ]);
  await db.enrollments.bulkPut([
    { id: 'e1', participant_id: 'p1', cohort_id: 'c-old', enrollment_status: 'active' },
    { id: 'e2', participant_id: 'p2', cohort_id: 'c-old', enrollment_status: 'withdrawn' },
    { id: 'e3', participant_id: 'p3', cohort_id: 'c-old', enrollment_status: 'graduated' },
    { id: 'e4', participant_id: 'p4', cohort_id: 'c-new', enrollment_status: 'waitlist' },
  ]);
}

describe('CohortsPage (spec 2.8)', () => {
  it('shows 6 skeleton cards while loading, then the empty state', async () => {
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    expect(screen.getByRole('heading', { name: 'Cohorts' })).toBeInTheDocument();
    expect(screen.getByText('Manage program cohorts and sessions')).toBeInTheDocument();
    expect(within(screen.getByRole('status', { name: 'Loading cohorts' })).getAllByTestId('skeleton-card')).toHaveLength(6);
    expect(await screen.findByText('No cohorts yet')).toBeInTheDocument();
    expect(screen.getByText('Create your first cohort to get started')).toBeInTheDocument();
  });

  it('lists cohorts newest start first, undated last', async () => {
    await seed();
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    await screen.findByText('FL-SQ-2025Q3');
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles).toEqual(['FL-SQ-2025Q3', 'FL-SQ-2024Q1', 'Untitled Cohort']);
  });

  it('shows status, program, site, occupancy of ALL enrollments, and dates on each card', async () => {
    await seed();
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    const old = (await screen.findByText('FL-SQ-2024Q1')).closest('a')!;
    expect(old).toHaveAttribute('href', '/cohortdetail?id=c-old');
    expect(within(old).getByText('COMPLETED')).toBeInTheDocument();
    expect(within(old).getByText('Financial Literacy')).toBeInTheDocument();
    expect(within(old).getByText('San Quentin')).toBeInTheDocument();
    // Active + withdrawn + graduated: the list counts every status (spec 4).
    expect(within(old).getByText('3 / 12 enrolled')).toBeInTheDocument();
    // Labelled so a coach sees why CohortDetail shows fewer (issue #12.9).
    expect(within(old).getByText('3 / 12 enrolled')).toHaveTextContent('3 / 12 enrolled · all statuses');
    expect(within(old).getByText('Jan 10, 2024')).toBeInTheDocument();
    expect(within(old).getByText('Apr 1, 2024')).toBeInTheDocument();

    const fresh = screen.getByText('FL-SQ-2025Q3').closest('a')!;
    expect(within(fresh).getByText('1 / ∞ enrolled')).toBeInTheDocument();
    expect(within(fresh).queryByText('End Date')).not.toBeInTheDocument();

    const blank = screen.getByText('Untitled Cohort').closest('a')!;
    expect(within(blank).getByText('PLANNED')).toBeInTheDocument();
    expect(within(blank).getByText('Not set')).toBeInTheDocument();
    expect(within(blank).getByText('0 / 20 enrolled')).toBeInTheDocument();
  });

  it("'New Cohort' goes to AddCohort for a coach (not role-restricted)", async () => {
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    await userEvent.click(screen.getByRole('link', { name: 'New Cohort' }));
    expect(await screen.findByText('Now on AddCohort')).toBeInTheDocument();
  });

  it('updates a card live when an enrollment is added', async () => {
    await seed();
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    await screen.findByText('1 / ∞ enrolled');
    await db.enrollments.put({ id: 'e5', participant_id: 'p5', cohort_id: 'c-new', enrollment_status: 'active' });
    expect(await screen.findByText('2 / ∞ enrolled')).toBeInTheDocument();
  });
});
