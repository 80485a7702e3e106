/**
 * S18 on Edit Cohort: a change from another device while an administrator edits the cohort shows
 * above the form, never in it; the save sends only what the administrator changed (S4).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedCohort } from './seed';

beforeEach(clearDb);
afterEach(cleanup);

describe('S18: an open cohort edit form and a change from another device', { timeout: 30_000 }, () => {
  it('S18: keeps the form, names the new values, takes them on request and saves only what was changed', async () => {
    const user = userEvent.setup();
    await seedCohort();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Edit Cohort' }));
    await user.clear(screen.getByLabelText('Schedule Notes'));
    await user.type(screen.getByLabelText('Schedule Notes'), 'Tuesdays 10am');
    const before = (await db.cohorts.get('c1'))!;
    await db.cohorts.put({ ...before, capacity: 20, status: 'completed', updated_date: '2025-02-01T00:00:00.000Z' });

    const notice = await screen.findByTestId('changed-elsewhere');
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Status: Completed', 'Capacity: 20']);
    expect(screen.getByLabelText('Capacity')).toHaveValue('12');
    expect(screen.getByLabelText('Status')).toHaveValue('active');
    expect(screen.getByLabelText('Schedule Notes')).toHaveValue('Tuesdays 10am');

    await user.click(within(notice).getByRole('button', { name: 'Use the new values' }));
    expect(screen.getByLabelText('Capacity')).toHaveValue('20');
    expect(screen.getByLabelText('Status')).toHaveValue('completed');
    expect(screen.queryByTestId('changed-elsewhere')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Cohort updated successfully!')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Cohort', data: { schedule_notes: 'Tuesdays 10am' }, base_updated_date: '2025-01-01T00:00:00.000Z' });
    expect(await db.cohorts.get('c1')).toMatchObject({ capacity: 20, status: 'completed', schedule_notes: 'Tuesdays 10am' });
  });
});
