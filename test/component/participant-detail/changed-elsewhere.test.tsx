/**
 * S18: an open edit form is never overwritten by a change from another device. A pull writes the
 * mirror row while the form is open (here the test writes it, as the engine would); the form keeps
 * what the person typed and every untouched field as it was, says "Changed on another device"
 * with the new values, takes them on request, and saves only what the person changed, based on
 * the record the form opened on (S4).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import type { Participant } from '../../../shared/entities';
import { ParticipantDetailPage } from '../../../src/screens/participant-detail/participant-detail-page';
import { clearDb, renderPage } from '../render-page';

beforeEach(clearDb);
afterEach(cleanup);

const OPENED_ON = '2025-01-10T00:00:00.000Z';
const maria: Participant = {
  id: 'p1',
  academy_uid: 'RA-0001',
  first_name: 'Maria',
  last_name: 'Lopez',
  gender: 'female',
  phone: '555-0101',
  custody_status: 'in-custody',
  updated_date: OPENED_ON,
};

/** What a pull of another device's change does to the mirror. */
const pulled = (changes: Partial<Participant>) => db.participants.put({ ...maria, ...changes, updated_date: '2025-01-11T08:00:00.000Z' });

async function openEdit() {
  await db.participants.put(maria);
  await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
  await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
}

describe('S18: an open participant edit form and a change from another device', { timeout: 30_000 }, () => {
  it('S18: keeps what was typed and the untouched fields, and names the new values', async () => {
    await openEdit();
    await userEvent.type(screen.getByLabelText('Email'), 'maria@example.org');
    await userEvent.clear(screen.getByLabelText('Phone'));
    await userEvent.type(screen.getByLabelText('Phone'), '555-0199');
    await pulled({ first_name: 'Mariana', phone: '555-0300', custody_status: 'released' });

    const notice = await screen.findByTestId('changed-elsewhere');
    expect(notice).toHaveTextContent('Changed on another device');
    const items = within(notice).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(['First Name: Mariana', 'Phone: 555-0300 (you changed this too: saving keeps yours)', 'Custody Status: Released']);
    expect(screen.getByLabelText('First Name *')).toHaveValue('Maria');
    expect(screen.getByLabelText('Phone')).toHaveValue('555-0199');
    expect(screen.getByLabelText('Email')).toHaveValue('maria@example.org');
    expect(screen.getByLabelText('Custody Status')).toHaveValue('in-custody');
  });

  it('S18: "Use the new values" takes them for the untouched fields only', async () => {
    await openEdit();
    await userEvent.clear(screen.getByLabelText('Phone'));
    await userEvent.type(screen.getByLabelText('Phone'), '555-0199');
    await pulled({ first_name: 'Mariana', phone: '555-0300' });
    await userEvent.click(await screen.findByRole('button', { name: 'Use the new values' }));

    expect(screen.getByLabelText('First Name *')).toHaveValue('Mariana');
    expect(screen.getByLabelText('Phone')).toHaveValue('555-0199');
    const notice = screen.getByTestId('changed-elsewhere');
    expect(within(notice).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Phone: 555-0300 (you changed this too: saving keeps yours)']);
    expect(within(notice).queryByRole('button', { name: 'Use the new values' })).not.toBeInTheDocument();
  });

  it('S18: saves only the fields the person changed, based on the record the form opened on (S4)', async () => {
    await openEdit();
    await userEvent.clear(screen.getByLabelText('Phone'));
    await userEvent.type(screen.getByLabelText('Phone'), '555-0199');
    await pulled({ first_name: 'Mariana', phone: '555-0300' });
    await screen.findByTestId('changed-elsewhere');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Participant updated successfully!')).toBeInTheDocument();

    // The other device's first name stays; the phone both changed is ours, queued on the old base,
    // so the engine records the conflict when it sends it (S4).
    expect(await db.participants.get('p1')).toMatchObject({ first_name: 'Mariana', phone: '555-0199' });
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ kind: 'update', data: { phone: '555-0199' }, base_values: { phone: '555-0101' }, base_updated_date: OPENED_ON });
  });

  it('S18: shows nothing while the record is unchanged, and the view updates in place when not editing', async () => {
    await db.participants.put(maria);
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Maria Lopez' })).toBeInTheDocument();
    await pulled({ first_name: 'Mariana' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mariana Lopez' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(screen.queryByTestId('changed-elsewhere')).not.toBeInTheDocument();
    expect(screen.getByLabelText('First Name *')).toHaveValue('Mariana');
  });
});
