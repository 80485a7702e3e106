import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { ProgramsSitesPage } from '../../../src/screens/programs-sites/programs-sites-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedScope } from '../seed-tablet-scope';

// Issue #22: the Sites column marks the sites this tablet holds when it holds only some.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

const sitesColumn = () => screen.getByRole('region', { name: /^Sites/ });

async function seed() {
  await db.programs.put({ id: 'pr1', program_name: 'Financial Literacy', active: true });
  await db.sites.bulkPut([
    { id: 's1', site_name: 'Oak Glen', site_type: 'fire_camp', active: true },
    { id: 's2', site_name: 'Downtown Center', site_type: 'community', active: true },
    { id: 's3', site_name: 'San Quentin', site_type: 'prison', active: true },
  ]);
}

describe('ProgramsSitesPage on a tablet holding some sites (issue #22)', () => {
  it("marks the held sites 'On this tablet'; all sites are still listed and counted", async () => {
    await seed();
    await seedScope({ siteIds: ['s1', 's3'] });
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites' });
    expect(await screen.findByRole('heading', { name: 'Sites (3)' })).toBeInTheDocument();
    const column = sitesColumn();
    // The tablet's scope is a query of its own: the marks may come a moment after the list.
    expect(await within(within(column).getByRole('article', { name: 'Oak Glen' })).findByText('On this tablet')).toBeInTheDocument();
    expect(within(within(column).getByRole('article', { name: 'San Quentin' })).getByText('On this tablet')).toBeInTheDocument();
    expect(within(within(column).getByRole('article', { name: 'Downtown Center' })).queryByText('On this tablet')).not.toBeInTheDocument();
    expect(within(column).getByRole('link', { name: 'Sync → Sites on this tablet' })).toHaveAttribute('href', '/sync');
    // Programs are whole on every tablet: no marks there.
    expect(within(screen.getByRole('region', { name: /^Programs/ })).queryByText('On this tablet')).not.toBeInTheDocument();
  });
});

describe('ProgramsSitesPage on a tablet holding every site', () => {
  it('marks nothing', async () => {
    await seed();
    await seedScope({ all: true, siteIds: ['s1', 's2', 's3'], userId: ADMIN.id });
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    expect(await screen.findByRole('heading', { name: 'Sites (3)' })).toBeInTheDocument();
    expect(await within(sitesColumn()).findByRole('article', { name: 'Oak Glen' })).toBeInTheDocument();
    expect(screen.queryByText('On this tablet')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sites-scope')).not.toBeInTheDocument();
  });

  it('with no scope derived yet, marks nothing', async () => {
    await seed();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites' });
    expect(await within(sitesColumn()).findByRole('article', { name: 'Oak Glen' })).toBeInTheDocument();
    expect(screen.queryByText('On this tablet')).not.toBeInTheDocument();
  });
});
