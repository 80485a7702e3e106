import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { INITIAL_STATUS } from '../../../src/data/sync/status-store';
import { SYNC_STATUS_KEY } from '../../../src/data/sync/types';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedScope } from '../seed-tablet-scope';
import { seedCohort } from './seed';

// Issue #22.2: a cohort the tablet does not hold is 'Not on this tablet', not 'Cohort not found'.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

const MESSAGE = 'This cohort is at a site this tablet does not hold. Add the site under Sync → Sites on this tablet to work with it here.';

describe('CohortDetailPage on a tablet holding some sites (issue #22.2)', () => {
  it("an unknown cohort: 'Not on this tablet', what to do, the Sync page and Back to Cohorts", async () => {
    await seedCohort();
    await seedScope({ siteIds: ['s1'] });
    await renderPage(<CohortDetailPage id="elsewhere" />, { at: 'CohortDetail', id: 'elsewhere' });
    expect(await screen.findByRole('heading', { name: 'Not on this tablet' })).toBeInTheDocument();
    expect(screen.getByText(MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText('Cohort not found')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sites on this tablet' })).toHaveAttribute('href', '/sync');
    await userEvent.click(screen.getByRole('link', { name: 'Back to Cohorts' }));
    expect(await screen.findByText('Now on Cohorts')).toBeInTheDocument();
  });

  it('a cohort the tablet holds shows as usual', async () => {
    await seedCohort();
    await seedScope({ siteIds: ['s1'] });
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
    expect(await screen.findByRole('heading', { name: /FL-SQ-2025Q1/ })).toBeInTheDocument();
    expect(screen.queryByText('Not on this tablet')).not.toBeInTheDocument();
  });

  it("every site held (an administrator's default): the spec's 'Cohort not found'", async () => {
    await seedScope({ all: true, siteIds: ['s1'], userId: ADMIN.id });
    await renderPage(<CohortDetailPage id="gone" />, { at: 'CohortDetail', id: 'gone', user: ADMIN });
    expect(await screen.findByRole('heading', { name: 'Cohort not found' })).toBeInTheDocument();
    expect(screen.queryByText('Not on this tablet')).not.toBeInTheDocument();
  });

  it("another user's stored scope does not count: 'Cohort not found'", async () => {
    await seedScope({ siteIds: ['s1'], userId: 'someone-else' });
    await renderPage(<CohortDetailPage id="gone" />, { at: 'CohortDetail', id: 'gone' });
    expect(await screen.findByRole('heading', { name: 'Cohort not found' })).toBeInTheDocument();
  });

  it('during the first sync: the first-sync state, not "Not on this tablet"', async () => {
    await seedScope({ siteIds: ['s1'] });
    await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, firstSyncComplete: false, online: false } });
    await renderPage(<CohortDetailPage id="elsewhere" />, { at: 'CohortDetail', id: 'elsewhere' });
    expect(await screen.findByRole('link', { name: 'Back to Cohorts' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Not on this tablet' })).not.toBeInTheDocument();
    expect(screen.queryByText('Cohort not found')).not.toBeInTheDocument();
  });
});
