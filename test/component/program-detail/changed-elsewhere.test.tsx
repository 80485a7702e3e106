/**
 * S18 on Edit Program (ProgramDetail): a change from another device while an administrator edits
 * the program shows above the form, never in it; the save sends only what the administrator
 * changed, based on the program as the form opened (S4).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { ProgramDetailPage } from '../../../src/screens/program-detail/program-detail-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedProgramsAndSites } from './seed';

beforeEach(clearDb);
afterEach(cleanup);

const OPENED_ON = '2025-01-10T00:00:00.000Z';

/** What a pull of another device's change does to the mirror. */
async function pulled(changes: Record<string, unknown>) {
  const now = (await db.programs.get('pr1'))!;
  await db.programs.put({ ...now, ...changes, updated_date: '2025-01-11T08:00:00.000Z' });
}

async function openEdit() {
  const user = userEvent.setup();
  await seedProgramsAndSites();
  await db.programs.update('pr1', { updated_date: OPENED_ON });
  await renderPage(<ProgramDetailPage id="pr1" />, { at: 'ProgramDetail', id: 'pr1', user: ADMIN });
  await user.click(await screen.findByRole('button', { name: 'Edit Program' }));
  return user;
}

describe('S18: an open program edit form and a change from another device', { timeout: 30_000 }, () => {
  it('S18: keeps what was typed, names the new values, and saves only the changed field on the opened basis', async () => {
    const user = await openEdit();
    await user.clear(screen.getByLabelText('Description'));
    await user.type(screen.getByLabelText('Description'), 'Money basics');
    await pulled({ program_name: 'Financial Literacy II', active: false });

    const notice = await screen.findByTestId('changed-elsewhere');
    expect(notice).toHaveTextContent('Changed on another device');
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Program Name: Financial Literacy II', 'Active Program: No']);
    expect(screen.getByLabelText('Program Name *')).toHaveValue('Financial Literacy');
    expect(screen.getByLabelText('Active Program')).toBeChecked();
    expect(screen.getByLabelText('Description')).toHaveValue('Money basics');

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Program updated successfully!')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Program', kind: 'update', data: { description: 'Money basics' }, base_values: { description: 'Budgets, credit and banking' }, base_updated_date: OPENED_ON });
    expect(Object.keys(op.data as object)).toEqual(['description']);
    // The other device's name and active mark stay.
    expect(await db.programs.get('pr1')).toMatchObject({ program_name: 'Financial Literacy II', active: false, description: 'Money basics' });
  });

  it('S18: "Use the new values" takes them for the untouched fields; a field both changed keeps the typed value', async () => {
    const user = await openEdit();
    await user.clear(screen.getByLabelText('Description'));
    await user.type(screen.getByLabelText('Description'), 'Money basics');
    await pulled({ program_name: 'Financial Literacy II', description: 'Banking first' });

    const notice = await screen.findByTestId('changed-elsewhere');
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Program Name: Financial Literacy II',
      'Description: Banking first (you changed this too: saving keeps yours)',
    ]);
    await user.click(within(notice).getByRole('button', { name: 'Use the new values' }));
    expect(screen.getByLabelText('Program Name *')).toHaveValue('Financial Literacy II');
    expect(screen.getByLabelText('Description')).toHaveValue('Money basics');
    expect(within(screen.getByTestId('changed-elsewhere')).queryByRole('button', { name: 'Use the new values' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Program updated successfully!')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    // Sent on the description the form opened with, so S4 records the conflict with 'Banking first'.
    expect(op).toMatchObject({ data: { description: 'Money basics' }, base_values: { description: 'Budgets, credit and banking' }, base_updated_date: OPENED_ON });
    expect(Object.keys(op.data as object)).toEqual(['description']);
  });
});
