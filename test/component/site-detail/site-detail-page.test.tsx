import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SiteDetailPage } from '../../../src/screens/site-detail/site-detail-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedProgramsAndSites } from '../program-detail/seed';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

const panel = (title: string | RegExp) => screen.getByRole('heading', { name: title }).parentElement!.parentElement!;
const stat = (scope: HTMLElement, label: string) => within(scope).getByText(label).nextSibling;

describe('SiteDetailPage (spec 2.13)', () => {
  it("shows 'Site not found' with 'Back to Sites'", async () => {
    await renderPage(<SiteDetailPage id="nope" />, { at: 'SiteDetail', id: 'nope' });
    expect(await screen.findByRole('heading', { name: 'Site not found' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Back to Sites' }));
    expect(await screen.findByText('Now on ProgramsSites')).toBeInTheDocument();
  });

  it('shows the site read-only: type, location, cohorts, programs, stats and coaches', async () => {
    await seedProgramsAndSites();
    await renderPage(<SiteDetailPage id="s1" />, { at: 'SiteDetail', id: 's1', user: ADMIN });
    expect(await screen.findByRole('heading', { name: /San Quentin/ })).toBeInTheDocument();
    expect(screen.getByText('prison', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    const location = panel('Location Details');
    expect(within(location).getByText('City').nextSibling).toHaveTextContent('San Quentin');
    expect(within(location).getByText('County').nextSibling).toHaveTextContent('Marin');
    expect(within(location).getByText('Region').nextSibling).toHaveTextContent('North');
    expect(within(location).getByText('Facility Type').nextSibling).toHaveTextContent('prison');

    const cohorts = await screen.findByRole('heading', { name: 'Cohorts at This Site (3)' });
    const links = within(cohorts.parentElement!.parentElement!).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/cohortdetail?id=c4', '/cohortdetail?id=c1', '/cohortdetail?id=c3']);
    expect(await within(links[1]).findByText('2 / 12 enrolled')).toBeInTheDocument();
    expect(within(links[0]).getByText('Credit Repair')).toBeInTheDocument();

    const programs = panel('Programs');
    expect(within(programs).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Credit Repair', '/programdetail?id=pr2'],
      ['Financial Literacy', '/programdetail?id=pr1'],
    ]);
    const stats = panel('Site Stats');
    expect(stat(stats, 'Active Cohorts')).toHaveTextContent('2');
    expect(stat(stats, 'Total Cohorts')).toHaveTextContent('3');
    expect(stat(stats, 'Active Participants')).toHaveTextContent('3');
    expect(within(panel('Coaches (3)')).getByText('bo@example.org')).toBeInTheDocument();
    // Read-only, even for admins.
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it("shows 'unspecified', 'Not specified' and the empty texts for a bare site", async () => {
    await seedProgramsAndSites();
    await renderPage(<SiteDetailPage id="s3" />, { at: 'SiteDetail', id: 's3' });
    expect(await screen.findByText('unspecified')).toBeInTheDocument();
    expect(await screen.findByText('No cohorts at this site yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cohorts at This Site (0)' })).toBeInTheDocument();
    expect(within(panel('Location Details')).getAllByText('Not specified')).toHaveLength(4);
    expect(within(panel('Site Stats')).getByText('Active Participants').nextSibling).toHaveTextContent('0');
  });
});
