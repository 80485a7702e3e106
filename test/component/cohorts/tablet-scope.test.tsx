import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { CohortsPage } from '../../../src/screens/cohorts/cohorts-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedScope } from '../seed-tablet-scope';

// Issue #22.4: the Cohorts list says what it covers on a tablet holding some sites, and its empty
// state never says the academy has no cohorts.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

async function seedCohorts() {
  await db.programs.put({ id: 'pr1', program_name: 'Financial Literacy', active: true });
  await db.sites.bulkPut([
    { id: 's1', site_name: 'San Quentin', active: true },
    { id: 's2', site_name: 'Folsom', active: true },
    { id: 's3', site_name: 'Oak Glen', active: true },
  ]);
  await db.cohorts.bulkPut([
    { id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-1', start_date: '2025-01-06', status: 'active' },
    { id: 'c2', program_id: 'pr1', site_id: 's2', cohort_code: 'FL-FO-1', start_date: '2025-02-06', status: 'active' },
  ]);
}

describe('CohortsPage on a tablet holding some sites (issue #22.4)', () => {
  it("says under the subtitle what the list covers: 'Cohorts at your 3 sites'", async () => {
    await seedCohorts();
    await seedScope({ siteIds: ['s1', 's2', 's3'] });
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    expect(await screen.findByText('FL-SQ-1')).toBeInTheDocument();
    expect(screen.getByText('Manage program cohorts and sessions')).toBeInTheDocument();
    expect(screen.getByTestId('list-scope')).toHaveTextContent(/^Cohorts at your 3 sites$/);
  });

  it("sites chosen beyond the user's own: 'Cohorts at 2 sites'", async () => {
    await seedCohorts();
    await seedScope({ siteIds: ['s1', 's2'], defaultSiteIds: ['s1'] });
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    expect(await screen.findByTestId('list-scope')).toHaveTextContent(/^Cohorts at 2 sites$/);
  });

  it("empty: 'No cohorts at your sites on this tablet' and the way to Sites on this tablet — never 'No cohorts yet'", async () => {
    await seedScope({ siteIds: ['s9'] });
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    expect(await screen.findByText('No cohorts at your sites on this tablet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sync → Sites on this tablet' })).toHaveAttribute('href', '/sync');
    expect(screen.queryByText('No cohorts yet')).not.toBeInTheDocument();
    expect(screen.queryByText('Create your first cohort to get started')).not.toBeInTheDocument();
  });

  it('a search with no match says other sites were not searched', async () => {
    await seedCohorts();
    await seedScope({ siteIds: ['s1', 's2'] });
    await renderPage(<CohortsPage />, { at: 'Cohorts' });
    await screen.findByText('FL-SQ-1');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search cohorts' }), 'zzz');
    expect(await screen.findByText('No cohorts found')).toBeInTheDocument();
    expect(screen.getByText('Try another code, program, site or status. Cohorts of other sites are not on this tablet.')).toBeInTheDocument();
  });
});

describe('CohortsPage on a tablet holding every site', () => {
  it("no scope line; the spec's empty state", async () => {
    await seedScope({ all: true, siteIds: ['s1'], userId: ADMIN.id });
    await renderPage(<CohortsPage />, { at: 'Cohorts', user: ADMIN });
    expect(await screen.findByText('No cohorts yet')).toBeInTheDocument();
    expect(screen.getByText('Create your first cohort to get started')).toBeInTheDocument();
    expect(screen.queryByTestId('list-scope')).not.toBeInTheDocument();
  });

  it('lists every cohort with no scope line', async () => {
    await seedCohorts();
    await seedScope({ all: true, siteIds: ['s1', 's2', 's3'], userId: ADMIN.id });
    await renderPage(<CohortsPage />, { at: 'Cohorts', user: ADMIN });
    expect(await screen.findByText('FL-FO-1')).toBeInTheDocument();
    expect(screen.getByText('FL-SQ-1')).toBeInTheDocument();
    expect(screen.queryByTestId('list-scope')).not.toBeInTheDocument();
  });
});
