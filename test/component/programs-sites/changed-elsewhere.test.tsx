/**
 * S18 on the Programs & Sites cards' Edit forms: a change from another device while an
 * administrator edits a program or a site shows above the form, never in it; the save sends only
 * what the administrator changed, based on the record as the form opened (S4).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { ProgramsSitesPage } from '../../../src/screens/programs-sites/programs-sites-page';
import { ADMIN, clearDb, renderPage } from '../render-page';

beforeEach(clearDb);
afterEach(cleanup);

const OPENED_ON = '2025-01-10T00:00:00.000Z';
const PULLED_AT = '2025-01-11T08:00:00.000Z';

async function openEdit(card: string) {
  const user = userEvent.setup();
  await db.programs.put({ id: 'pr1', program_name: 'Financial Literacy', description: 'Budgets and credit', active: true, updated_date: OPENED_ON });
  await db.sites.put({ id: 's1', site_name: 'Oak Glen', site_type: 'fire_camp', city: 'Yucaipa', county: 'San Bernardino', region: null, active: true, updated_date: OPENED_ON });
  await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
  await user.click(within(await screen.findByRole('article', { name: card })).getByRole('button', { name: 'Edit' }));
  return user;
}

describe('S18: open Program and Site card edit forms and a change from another device', { timeout: 30_000 }, () => {
  it('S18: the program card keeps the typed name, names the new description, and saves only the name', async () => {
    const user = await openEdit('Financial Literacy');
    await user.clear(screen.getByLabelText('Program Name *'));
    await user.type(screen.getByLabelText('Program Name *'), 'Money Skills');
    const now = (await db.programs.get('pr1'))!;
    await db.programs.put({ ...now, description: 'Budgets, credit and banking', updated_date: PULLED_AT });

    const notice = await screen.findByTestId('changed-elsewhere');
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Description: Budgets, credit and banking']);
    expect(screen.getByLabelText('Program Name *')).toHaveValue('Money Skills');
    expect(screen.getByLabelText('Description')).toHaveValue('Budgets and credit');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Program updated successfully!')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Program', data: { program_name: 'Money Skills' }, base_values: { program_name: 'Financial Literacy' }, base_updated_date: OPENED_ON });
    expect(Object.keys(op.data as object)).toEqual(['program_name']);
    expect(await db.programs.get('pr1')).toMatchObject({ program_name: 'Money Skills', description: 'Budgets, credit and banking' });
  });

  it('S18: the site card keeps the typed city, names the new type and region, takes them on request, and saves only the city', async () => {
    const user = await openEdit('Oak Glen');
    await user.clear(screen.getByLabelText('City'));
    await user.type(screen.getByLabelText('City'), 'Beaumont');
    const now = (await db.sites.get('s1'))!;
    await db.sites.put({ ...now, site_type: 'community', region: 'Inland Empire', city: 'Redlands', updated_date: PULLED_AT });

    const notice = await screen.findByTestId('changed-elsewhere');
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Site Type: Community',
      'City: Redlands (you changed this too: saving keeps yours)',
      'Region: Inland Empire',
    ]);
    expect(screen.getByLabelText('Site Type')).toHaveValue('fire_camp');
    expect(screen.getByLabelText('City')).toHaveValue('Beaumont');

    await user.click(within(notice).getByRole('button', { name: 'Use the new values' }));
    expect(screen.getByLabelText('Site Type')).toHaveValue('community');
    expect(screen.getByLabelText('Region')).toHaveValue('Inland Empire');
    expect(screen.getByLabelText('City')).toHaveValue('Beaumont');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Site updated successfully!')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Site', data: { city: 'Beaumont' }, base_values: { city: 'Yucaipa' }, base_updated_date: OPENED_ON });
    expect(Object.keys(op.data as object)).toEqual(['city']);
    expect(await db.sites.get('s1')).toMatchObject({ site_type: 'community', region: 'Inland Empire', city: 'Beaumont' });
  });
});
