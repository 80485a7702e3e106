/**
 * S18 on a roster row's note: a note another coach writes while this one is open shows above the
 * input, never in it; Save sends the typed note based on the note the form opened with (S4), and
 * an untouched note never writes the old words over the new.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { TakeAttendancePage } from '../../../src/screens/take-attendance/take-attendance-page';
import { clearDb, renderPage } from '../render-page';
import { seedSession } from './seed';

beforeEach(clearDb);
afterEach(cleanup);

const OPENED_ON = '2099-01-21T10:00:00.000Z';
const row = () => screen.getByRole('listitem', { name: 'Marisol Ortega' });

async function openNote() {
  const user = userEvent.setup();
  await seedSession();
  await db.attendance.update('a-old', { updated_date: OPENED_ON });
  await renderPage(<TakeAttendancePage id="ss3" />, { at: 'TakeAttendance', id: 'ss3' });
  await user.click(await within(await screen.findByRole('listitem', { name: 'Marisol Ortega' })).findByRole('button', { name: 'Edit note for Marisol Ortega' }));
  return user;
}

/** What a pull of the other coach's note does to the mirror. */
async function pulled(note: string) {
  const now = (await db.attendance.get('a-old'))!;
  await db.attendance.put({ ...now, note, updated_date: '2099-01-21T11:00:00.000Z' });
}

describe('S18: an open attendance note and a change from another device', { timeout: 30_000 }, () => {
  it('S18: keeps the typed note, names the new one, and saves the typed note on the opened basis', async () => {
    const user = await openNote();
    const input = within(row()).getByRole('textbox', { name: 'Note for Marisol Ortega' });
    await user.clear(input);
    await user.type(input, 'Bus was 20 minutes late');
    await pulled('Bus broke down');

    const notice = await within(row()).findByTestId('changed-elsewhere');
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Note: Bus broke down (you changed this too: saving keeps yours)']);
    expect(input).toHaveValue('Bus was 20 minutes late');

    await user.click(within(row()).getByRole('button', { name: 'Save note' }));
    expect(await within(row()).findByText('Note: Bus was 20 minutes late')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Attendance', kind: 'update', data: { note: 'Bus was 20 minutes late' }, base_values: { note: 'Bus was late' }, base_updated_date: OPENED_ON });
  });

  it('S18: an untouched note takes the new words on request, and Save without a change writes nothing', async () => {
    const user = await openNote();
    await pulled('Bus broke down');
    const notice = await within(row()).findByTestId('changed-elsewhere');
    expect(within(row()).getByRole('textbox', { name: 'Note for Marisol Ortega' })).toHaveValue('Bus was late');
    await user.click(within(notice).getByRole('button', { name: 'Use the new values' }));
    expect(within(row()).getByRole('textbox', { name: 'Note for Marisol Ortega' })).toHaveValue('Bus broke down');

    await user.click(within(row()).getByRole('button', { name: 'Save note' }));
    expect(await within(row()).findByText('Note: Bus broke down')).toBeInTheDocument();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.attendance.get('a-old')).toMatchObject({ note: 'Bus broke down' });
  });
});
