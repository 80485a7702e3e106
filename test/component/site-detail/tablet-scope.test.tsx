import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { SiteDetailPage } from '../../../src/screens/site-detail/site-detail-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedProgramsAndSites } from '../program-detail/seed';
import { seedScope } from '../seed-tablet-scope';

// Issue #22.2: a site whose cohorts the tablet does not hold never claims it has none.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

const panel = (title: string | RegExp) => screen.getByRole('heading', { name: title }).parentElement!.parentElement!;
const stat = (scope: HTMLElement, label: string) => within(scope).getByText(label).nextSibling;

describe('SiteDetailPage on a tablet holding some sites (issue #22.2)', () => {
  it('a site beyond the scope: its cohorts, programs, stats and coaches are "not on this tablet", with the way to add it', async () => {
    await seedProgramsAndSites();
    await seedScope({ siteIds: ['s1'] });
    await renderPage(<SiteDetailPage id="s3" />, { at: 'SiteDetail', id: 's3' });
    expect(await screen.findByText('The cohorts of this site are not on this tablet.')).toBeInTheDocument();
    const cohorts = panel('Cohorts at This Site');
    expect(within(cohorts).getByText('Not on this tablet')).toBeInTheDocument();
    expect(within(cohorts).getByRole('link', { name: 'Sync → Sites on this tablet' })).toHaveAttribute('href', '/sync');
    expect(screen.queryByText('No cohorts at this site yet')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Cohorts at This Site \(/ })).not.toBeInTheDocument();

    const stats = panel('Site Stats');
    for (const label of ['Active Cohorts', 'Total Cohorts', 'Active Participants']) {
      expect(stat(stats, label)).toHaveTextContent('Not on this tablet');
    }
    expect(within(panel('Programs')).getByText('Not on this tablet')).toBeInTheDocument();
    expect(within(panel('Coaches')).getByText('Not on this tablet')).toBeInTheDocument();
    expect(screen.queryByText('No programs yet')).not.toBeInTheDocument();
    expect(screen.queryByText('No coaches assigned yet')).not.toBeInTheDocument();
    // The site itself is whole on every tablet.
    expect(screen.getByRole('heading', { name: /Empty Site/ })).toBeInTheDocument();
  });

  it('a cohort of that site kept here anyway (opened participant) is still listed under the note', async () => {
    await seedProgramsAndSites();
    await seedScope({ siteIds: ['s1'] });
    await renderPage(<SiteDetailPage id="s2" />, { at: 'SiteDetail', id: 's2' });
    expect(await screen.findByText('The cohorts of this site are not on this tablet.')).toBeInTheDocument();
    expect(screen.getByText('Of its cohorts, these are on this tablet:')).toBeInTheDocument();
    expect(within(panel('Cohorts at This Site')).getByRole('link', { name: /FL-OG-2025Q2/ })).toHaveAttribute('href', '/cohortdetail?id=c2');
  });

  it('a site in the scope shows its cohorts and figures as the spec says', async () => {
    await seedProgramsAndSites();
    await seedScope({ siteIds: ['s1'] });
    await renderPage(<SiteDetailPage id="s1" />, { at: 'SiteDetail', id: 's1' });
    expect(await screen.findByRole('heading', { name: 'Cohorts at This Site (3)' })).toBeInTheDocument();
    const stats = panel('Site Stats');
    expect(stat(stats, 'Total Cohorts')).toHaveTextContent('3');
    await waitFor(() => expect(stat(stats, 'Active Participants')).toHaveTextContent('3'));
    expect(screen.queryByText('Not on this tablet')).not.toBeInTheDocument();
  });

  it('a held site with no cohorts: the spec empty text', async () => {
    await seedProgramsAndSites();
    await seedScope({ siteIds: ['s1', 's3'] });
    await renderPage(<SiteDetailPage id="s3" />, { at: 'SiteDetail', id: 's3' });
    expect(await screen.findByText('No cohorts at this site yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cohorts at This Site (0)' })).toBeInTheDocument();
  });
});

describe('SiteDetailPage on a tablet holding every site', () => {
  it("a site without cohorts: 'No cohorts at this site yet' and 0s", async () => {
    await seedProgramsAndSites();
    await seedScope({ all: true, siteIds: ['s1', 's2', 's3'], userId: ADMIN.id });
    await renderPage(<SiteDetailPage id="s3" />, { at: 'SiteDetail', id: 's3', user: ADMIN });
    expect(await screen.findByText('No cohorts at this site yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cohorts at This Site (0)' })).toBeInTheDocument();
    expect(stat(panel('Site Stats'), 'Total Cohorts')).toHaveTextContent('0');
    expect(screen.queryByText('Not on this tablet')).not.toBeInTheDocument();
  });

  it('a site the stored scope does not list (created since) still counts as held when every site is held', async () => {
    await seedProgramsAndSites();
    await db.sites.put({ id: 's4', site_name: 'New Site', active: true });
    await seedScope({ all: true, siteIds: ['s1', 's2', 's3'], userId: ADMIN.id });
    await renderPage(<SiteDetailPage id="s4" />, { at: 'SiteDetail', id: 's4', user: ADMIN });
    expect(await screen.findByText('No cohorts at this site yet')).toBeInTheDocument();
  });
});
