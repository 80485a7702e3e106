import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { ProgramDetailPage } from '../../../src/screens/program-detail/program-detail-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedProgramsAndSites } from './seed';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

const panel = (title: string | RegExp) => screen.getByRole('heading', { name: title }).parentElement!.parentElement!;
const stat = (scope: HTMLElement, label: string) => within(scope).getByText(label).nextSibling;

describe('ProgramDetailPage (spec 2.12)', () => {
  it("shows 'Program not found' with 'Back to Programs'", async () => {
    await renderPage(<ProgramDetailPage id="nope" />, { at: 'ProgramDetail', id: 'nope' });
    expect(screen.getByRole('status', { name: 'Loading program' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Program not found' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Back to Programs' }));
    expect(await screen.findByText('Now on ProgramsSites')).toBeInTheDocument();
  });

  it('shows the program, its cohorts with ACTIVE occupancy, sites, stats and coaches', async () => {
    await seedProgramsAndSites();
    await renderPage(<ProgramDetailPage id="pr1" />, { at: 'ProgramDetail', id: 'pr1' });
    expect(await screen.findByRole('heading', { name: /Financial Literacy/ })).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(within(panel('About This Program')).getByText('Budgets, credit and banking')).toBeInTheDocument();

    const cohorts = await screen.findByRole('heading', { name: 'Cohorts (3)' });
    const list = cohorts.parentElement!.parentElement!;
    const items = within(list).getAllByRole('link');
    expect(items.map((a) => a.getAttribute('href'))).toEqual(['/cohortdetail?id=c2', '/cohortdetail?id=c1', '/cohortdetail?id=c3']);
    const c1 = items[1];
    expect(within(c1).getByText('FL-SQ-2025Q1')).toBeInTheDocument();
    expect(within(c1).getByText('San Quentin')).toBeInTheDocument();
    expect(within(c1).getByText('ACTIVE')).toBeInTheDocument();
    expect(within(c1).getByText('Start: Jan 6, 2025')).toBeInTheDocument();
    expect(await within(c1).findByText('2 / 12 enrolled')).toBeInTheDocument();
    expect(within(c1).getByText('Lead Coach: lee@example.org')).toBeInTheDocument();
    expect(within(items[0]).getByText('1 / ∞ enrolled')).toBeInTheDocument();
    expect(within(items[2]).getByText('0 / 10 enrolled')).toBeInTheDocument();

    const sites = panel('Sites');
    expect(within(sites).getAllByRole('link').map((a) => a.textContent)).toEqual(['Oak Glen', 'San Quentin']);
    expect(within(sites).getByRole('link', { name: 'San Quentin' })).toHaveAttribute('href', '/sitedetail?id=s1');

    const stats = panel('Program Stats');
    expect(within(stats).getByText('Stats are calculated automatically from cohort data')).toBeInTheDocument();
    expect(stat(stats, 'Active Cohorts')).toHaveTextContent('1');
    expect(stat(stats, 'Total Cohorts')).toHaveTextContent('3');
    // p1 (in c1 and c2) and p2: distinct participants with an active enrollment.
    expect(stat(stats, 'Active Participants')).toHaveTextContent('2');
    expect(stat(stats, 'Total Sites')).toHaveTextContent('2');

    const coaches = panel('Coaches (2)');
    expect(within(coaches).getByText('lee@example.org')).toBeInTheDocument();
    expect(within(coaches).getByText('ann@example.org')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Program' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add Cohort' })).not.toBeInTheDocument();
  });

  it('shows the empty texts, and admins get Add Cohort and Create First Cohort', async () => {
    await seedProgramsAndSites();
    await db.cohorts.delete('c4');
    const { router } = await renderPage(<ProgramDetailPage id="pr2" />, { at: 'ProgramDetail', id: 'pr2', user: ADMIN });
    expect(await screen.findByText('Inactive')).toBeInTheDocument();
    expect(screen.getByText('No description added yet. Click Edit Program to add one.')).toBeInTheDocument();
    expect(await screen.findByText('No cohorts for this program yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cohorts (0)' })).toBeInTheDocument();
    // Both pre-select this program in AddCohort (issue #12.8).
    expect(screen.getByRole('link', { name: 'Add Cohort' })).toHaveAttribute('href', '/addcohort?program_id=pr2');
    await userEvent.click(screen.getByRole('link', { name: 'Create First Cohort' }));
    expect(await screen.findByText('Now on AddCohort')).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ program_id: 'pr2' });
  });

  it("lets an admin edit the program with Cancel and 'Save Changes'", async () => {
    const user = userEvent.setup();
    await seedProgramsAndSites();
    await renderPage(<ProgramDetailPage id="pr2" />, { at: 'ProgramDetail', id: 'pr2', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Edit Program' }));
    await user.type(screen.getByLabelText('Description'), 'Rebuild your credit');
    await user.click(screen.getByLabelText('Active Program'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Program updated successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Rebuild your credit')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(await db.programs.get('pr2')).toMatchObject({ description: 'Rebuild your credit', active: true });
    expect(await db.outbox.toArray()).toMatchObject([{ entity: 'Program', kind: 'update', data: { description: 'Rebuild your credit', active: true } }]);

    await user.click(screen.getByRole('button', { name: 'Edit Program' }));
    await user.clear(screen.getByLabelText('Program Name *'));
    await user.type(screen.getByLabelText('Program Name *'), 'Something else');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: /Credit Repair/ })).toBeInTheDocument();
  });
});
