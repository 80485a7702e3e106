import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { ProgramsSitesPage } from '../../../src/screens/programs-sites/programs-sites-page';
import { ADMIN, clearDb, renderPage } from '../render-page';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(clearDb);
afterEach(cleanup);

const programsColumn = () => screen.getByRole('region', { name: /^Programs/ });
const sitesColumn = () => screen.getByRole('region', { name: /^Sites/ });

async function seed() {
  await db.programs.bulkPut([
    { id: 'pr1', program_name: 'Financial Literacy', description: 'Budgets and credit', active: true },
    { id: 'pr2', program_name: '', description: null, active: false },
  ]);
  await db.sites.bulkPut([
    { id: 's1', site_name: 'Oak Glen', site_type: 'fire_camp', city: 'Yucaipa', county: 'San Bernardino', active: true },
    { id: 's2', site_name: 'Downtown Center', site_type: 'community', active: false },
  ]);
}

describe('ProgramsSitesPage (spec 2.11): reading', () => {
  it('shows 3 skeletons per column while loading, then the empty states', async () => {
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites' });
    expect(screen.getByRole('heading', { name: 'Programs & Sites' })).toBeInTheDocument();
    expect(screen.getByText('Manage programs and facility locations')).toBeInTheDocument();
    expect(within(screen.getByRole('status', { name: 'Loading programs' })).getAllByTestId('skeleton-card')).toHaveLength(3);
    expect(within(screen.getByRole('status', { name: 'Loading sites' })).getAllByTestId('skeleton-card')).toHaveLength(3);
    expect(await screen.findByText('No programs yet')).toBeInTheDocument();
    expect(screen.getByText('Create your first program to get started')).toBeInTheDocument();
    expect(await screen.findByText('No sites yet')).toBeInTheDocument();
    expect(screen.getByText('Create your first site to get started')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Programs (0)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sites (0)' })).toBeInTheDocument();
  });

  it('shows program and site cards with counts, links, types and active marks; coaches get no admin controls', async () => {
    await seed();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites' });
    expect(await screen.findByRole('heading', { name: 'Programs (2)' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Sites (2)' })).toBeInTheDocument();
    const fl = within(programsColumn()).getByRole('link', { name: /Financial Literacy/ });
    expect(fl).toHaveAttribute('href', '/programdetail?id=pr1');
    expect(within(fl).getByText('Budgets and credit')).toBeInTheDocument();
    expect(within(fl).getByRole('img', { name: 'Active' })).toBeInTheDocument();
    const untitled = within(programsColumn()).getByRole('link', { name: /Untitled Program/ });
    expect(within(untitled).getByRole('img', { name: 'Inactive' })).toBeInTheDocument();

    const oak = within(sitesColumn()).getByRole('link', { name: /Oak Glen/ });
    expect(oak).toHaveAttribute('href', '/sitedetail?id=s1');
    expect(within(oak).getByText('fire camp')).toBeInTheDocument();
    expect(within(oak).getByText('Yucaipa, San Bernardino')).toBeInTheDocument();
    expect(within(sitesColumn()).getByRole('link', { name: /Downtown Center/ })).toContainElement(
      within(sitesColumn()).getByRole('img', { name: 'Inactive' }),
    );

    expect(screen.queryByRole('button', { name: 'Add Program' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Site' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});

describe('ProgramsSitesPage (spec 2.11): admin programs', () => {
  it('creates a program (active by default) through the outbox', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Add Program' }));
    const create = screen.getByRole('button', { name: 'Create Program' });
    expect(create).toBeDisabled();
    expect(screen.getByLabelText('Active Program')).toBeChecked();
    await user.type(screen.getByLabelText('Program Name *'), '   ');
    await user.click(create);
    expect(screen.getByText('Please enter a program name')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Program Name *'));
    await user.type(screen.getByLabelText('Program Name *'), 'Credit Repair');
    await user.type(screen.getByLabelText('Description'), 'Fixing credit');
    await user.click(create);

    expect(await screen.findByText('Program created successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Programs (1)' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Program Name *')).not.toBeInTheDocument();
    const [row] = await db.programs.toArray();
    expect(row).toMatchObject({ program_name: 'Credit Repair', description: 'Fixing credit', active: true });
    expect(await db.outbox.toArray()).toMatchObject([{ entity: 'Program', kind: 'create', record_id: row.id }]);
  });

  it('edits a program inline', async () => {
    const user = userEvent.setup();
    await seed();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    const card = await screen.findByRole('article', { name: 'Financial Literacy' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    const name = screen.getByLabelText('Program Name *');
    expect(name).toHaveValue('Financial Literacy');
    await user.clear(name);
    await user.type(name, 'Financial Literacy 2');
    await user.click(screen.getByLabelText('Active Program'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Program updated successfully!')).toBeInTheDocument();
    expect(await db.programs.get('pr1')).toMatchObject({ program_name: 'Financial Literacy 2', active: false });
    expect(await db.outbox.toArray()).toMatchObject([{ kind: 'update', data: { program_name: 'Financial Literacy 2', active: false } }]);
  });

  it('deletes a program only after confirming', async () => {
    const user = userEvent.setup();
    await seed();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    const card = await screen.findByRole('article', { name: 'Financial Literacy' });
    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure?')).toBeInTheDocument();
    expect(within(dialog).getByText('This will permanently delete Financial Literacy. Any cohorts using this program will be affected.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await db.programs.get('pr1')).toBeDefined();

    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Program deleted successfully!')).toBeInTheDocument();
    expect(await db.programs.get('pr1')).toBeUndefined();
    expect(await db.outbox.toArray()).toMatchObject([{ entity: 'Program', kind: 'delete', record_id: 'pr1' }]);
    expect(await screen.findByRole('heading', { name: 'Programs (1)' })).toBeInTheDocument();
  });
});

describe('ProgramsSitesPage (spec 2.11): admin sites', () => {
  it('creates a site with prison as the default type', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Add Site' }));
    expect(screen.getByLabelText('Site Type')).toHaveValue('prison');
    expect(within(screen.getByLabelText('Site Type')).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual([
      'prison',
      'juvenile',
      'fire_camp',
      'community',
    ]);
    expect(screen.getByLabelText('Active Site')).toBeChecked();
    await user.type(screen.getByLabelText('Site Name *'), ' ');
    await user.click(screen.getByRole('button', { name: 'Create Site' }));
    expect(screen.getByText('Please enter a site name')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Site Name *'));
    await user.type(screen.getByLabelText('Site Name *'), 'Folsom');
    await user.type(screen.getByLabelText('City'), 'Represa');
    await user.type(screen.getByLabelText('County'), 'Sacramento');
    await user.type(screen.getByLabelText('Region'), 'North');
    await user.click(screen.getByRole('button', { name: 'Create Site' }));
    expect(await screen.findByText('Site created successfully!')).toBeInTheDocument();
    const [row] = await db.sites.toArray();
    expect(row).toMatchObject({ site_name: 'Folsom', site_type: 'prison', city: 'Represa', county: 'Sacramento', region: 'North', active: true });
  });

  it('edits and deletes a site', async () => {
    const user = userEvent.setup();
    await seed();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(within(await screen.findByRole('article', { name: 'Oak Glen' })).getByRole('button', { name: 'Edit' }));
    await user.selectOptions(screen.getByLabelText('Site Type'), 'juvenile');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Site updated successfully!')).toBeInTheDocument();
    expect(await db.sites.get('s1')).toMatchObject({ site_type: 'juvenile' });

    await user.click(within(await screen.findByRole('article', { name: 'Oak Glen' })).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('This will permanently delete Oak Glen. Any cohorts at this site will be affected.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Site deleted successfully!')).toBeInTheDocument();
    expect(await db.sites.get('s1')).toBeUndefined();
  });
});

describe('ProgramsSitesPage: programs and sites that cohorts use (issue #12.4)', () => {
  it("refuses deleting them with the spec's failure toast and how many cohorts use them; nothing is queued", async () => {
    await seed();
    await db.cohorts.bulkPut([
      { id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'A' },
      { id: 'c2', program_id: 'pr1', site_id: 'elsewhere', cohort_code: 'B' },
    ]);
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(within(await screen.findByRole('article', { name: 'Financial Literacy' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete program. It may be in use by cohorts.')).toBeInTheDocument();
    expect(screen.getByText('2 cohorts use this program.')).toBeInTheDocument();
    expect(await db.programs.get('pr1')).toBeDefined();
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));

    await user.click(within(screen.getByRole('article', { name: 'Oak Glen' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete site. It may be in use by cohorts.')).toBeInTheDocument();
    expect(screen.getByText('1 cohort uses this site.')).toBeInTheDocument();
    expect(await db.sites.get('s1')).toBeDefined();
    expect(await db.outbox.count()).toBe(0);
  });
});
