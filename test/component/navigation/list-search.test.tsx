import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { forgetListSearches } from '../../../src/shell-api/list-memory';
import { db } from '../../../src/data/db';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { CohortsPage } from '../../../src/screens/cohorts/cohorts-page';
import { ParticipantsPage } from '../../../src/screens/participants/participants-page';
import { ProgramDetailPage } from '../../../src/screens/program-detail/program-detail-page';
import { SiteDetailPage } from '../../../src/screens/site-detail/site-detail-page';
import { clearDb, renderPage } from '../render-page';

/**
 * Issue #12.8: lists keep their filters in the URL and their search text in memory (issue #21.6:
 * a typed name never reaches the address, the history or the disk); detail pages have a back link
 * to their list.
 */
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

beforeEach(async () => {
  await clearDb();
  forgetListSearches();
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Maria', last_name: 'Lopez', program_status: 'active', enrollment_date: '2025-02-01' },
    { id: 'p2', first_name: 'James', last_name: 'Carter', program_status: 'completed', enrollment_date: '2025-03-01' },
  ]);
  await db.programs.put({ id: 'pr1', program_name: 'Financial Literacy', active: true });
  await db.sites.put({ id: 's1', site_name: 'San Quentin', site_type: 'prison', active: true });
  await db.cohorts.bulkPut([
    { id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2025Q1', status: 'active', start_date: '2025-01-06' },
    { id: 'c2', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2024Q3', status: 'completed', start_date: '2024-07-01' },
  ]);
});
afterEach(cleanup);

const search = (router: { state: { location: { search: unknown } } }) => router.state.location.search as Record<string, string>;

describe('list search in the URL', () => {
  it('Participants: the status goes to the URL, the search text stays in memory; both are there again after opening a record and going back', async () => {
    const user = userEvent.setup();
    const { router } = await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await screen.findByText('2 participants');
    await user.type(screen.getByLabelText('Search participants'), 'mar');
    await user.selectOptions(screen.getByLabelText('Filter by program status'), 'active');
    await waitFor(() => expect(search(router)).toEqual({ status: 'active' }));
    expect(router.state.location.href).not.toContain('mar');
    await user.click(screen.getByRole('link', { name: /Maria Lopez/ }));
    expect(await screen.findByText('Now on ParticipantDetail (id p1)')).toBeInTheDocument();
    router.history.back();
    expect(await screen.findByText('1 participant')).toBeInTheDocument();
    expect(screen.getByLabelText('Search participants')).toHaveValue('mar');
    expect(screen.getByLabelText('Filter by program status')).toHaveValue('active');
    // The sidebar's plain link to the list clears them.
    await router.navigate({ to: '/participants', search: {} });
    await waitFor(() => expect(screen.getByLabelText('Search participants')).toHaveValue(''));
    expect(screen.getByLabelText('Filter by program status')).toHaveValue('all');
    expect(await screen.findByText('2 participants')).toBeInTheDocument();
  });

  it('Cohorts: a status filter that the URL keeps, a search kept in memory, and the back link of a cohort returns to them', async () => {
    const user = userEvent.setup();
    const { router } = await renderPage(<CohortsPage />, { at: 'Cohorts' });
    await screen.findByRole('link', { name: /FL-SQ-2025Q1/ });
    await user.selectOptions(screen.getByLabelText('Filter by cohort status'), 'completed');
    expect(screen.queryByRole('link', { name: /FL-SQ-2025Q1/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /FL-SQ-2024Q3/ })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Search cohorts'), 'quentin');
    await waitFor(() => expect(search(router)).toEqual({ status: 'completed' }));
    await user.clear(screen.getByLabelText('Search cohorts'));
    await user.type(screen.getByLabelText('Search cohorts'), 'nowhere');
    expect(screen.getByText('No cohorts found')).toBeInTheDocument();
    cleanup();

    // On the cohort's page, the back link leads to the list as it was left.
    await renderPage(<CohortDetailPage id="c2" />, { at: 'CohortDetail', id: 'c2' });
    const back = await screen.findByRole('link', { name: 'Cohorts' });
    expect(back).toHaveAttribute('href', '/cohorts?status=completed');
    cleanup();
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    expect(await screen.findByLabelText('Search cohorts')).toHaveValue('nowhere');
  });

  it('an old link with ?q= puts the text in the search box and takes it out of the address', async () => {
    const { router } = await renderPage(<ParticipantsPage />, { at: 'Participants', search: { q: 'Lopez' } });
    expect(await screen.findByLabelText('Search participants')).toHaveValue('Lopez');
    await waitFor(() => expect(search(router)).toEqual({}));
    expect(await screen.findByText('1 participant')).toBeInTheDocument();
  });
});

describe('back links (issue #12.8)', () => {
  it('program and site pages link back to Programs & Sites', async () => {
    await renderPage(<ProgramDetailPage id="pr1" />, { at: 'ProgramDetail', id: 'pr1' });
    expect(await screen.findByRole('link', { name: 'Programs & Sites' })).toHaveAttribute('href', '/programssites');
    cleanup();
    await renderPage(<SiteDetailPage id="s1" />, { at: 'SiteDetail', id: 's1' });
    expect(await screen.findByRole('link', { name: 'Programs & Sites' })).toHaveAttribute('href', '/programssites');
  });
});
