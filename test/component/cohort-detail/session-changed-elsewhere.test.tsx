/**
 * S18 on a session's Edit form (CohortDetail): a change from another device while the form is
 * open shows above it, never in it; the save sends only what the person changed, based on the
 * session as the form opened (S4).
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

const OPENED_ON = '2025-01-10T00:00:00.000Z';

describe('S18: an open session edit form and a change from another device', { timeout: 30_000 }, () => {
  it('S18: keeps the typed topic, names the new time, takes it on request, and saves only the topic', async () => {
    const user = userEvent.setup();
    await seedCohort();
    await db.sessions.update('ss2', { updated_date: OPENED_ON });
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Edit Session 2' }));
    const form = within(screen.getByRole('form', { name: 'Edit Session 2' }));
    await user.clear(form.getByLabelText('Topic'));
    await user.type(form.getByLabelText('Topic'), 'Credit reports');
    const now = (await db.sessions.get('ss2'))!;
    await db.sessions.put({ ...now, scheduled_at: '2099-01-15T10:30:00', updated_date: '2025-01-11T08:00:00.000Z' });

    const notice = await form.findByTestId('changed-elsewhere');
    expect(notice).toHaveTextContent('Changed on another device');
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Date and time: Jan 15, 10:30 AM']);
    expect(form.getByLabelText('Date and time *')).toHaveValue('2099-01-14T09:00');
    expect(form.getByLabelText('Topic')).toHaveValue('Credit reports');

    await user.click(within(notice).getByRole('button', { name: 'Use the new values' }));
    expect(form.getByLabelText('Date and time *')).toHaveValue('2099-01-15T10:30');
    expect(form.getByLabelText('Topic')).toHaveValue('Credit reports');
    expect(form.queryByTestId('changed-elsewhere')).not.toBeInTheDocument();

    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Session updated successfully!')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Session', kind: 'update', data: { topic: 'Credit reports' }, base_values: { topic: 'Credit' }, base_updated_date: OPENED_ON });
    expect(Object.keys(op.data as object)).toEqual(['topic']);
    expect(await db.sessions.get('ss2')).toMatchObject({ topic: 'Credit reports', scheduled_at: '2099-01-15T10:30:00' });
  });
});
