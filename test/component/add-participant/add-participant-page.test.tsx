import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, format, subYears } from 'date-fns';
import { db } from '../../../src/data/db';
import { fillStorage, holdWrites, refuseWrites } from '../../support/full-storage';
import { AddParticipantPage } from '../../../src/screens/add-participant/add-participant-page';
import { clearDb, COACH, renderPage } from '../render-page';

// The real command; a test that needs a failed or a slow save makes the device refuse or hold
// the write (test/support/full-storage.ts).
let acceptWrites = () => {};

beforeEach(async () => {
  await clearDb();
});
afterEach(() => {
  acceptWrites();
  acceptWrites = () => {};
  cleanup();
});

const iso = (d: Date) => format(d, 'yyyy-MM-dd');

describe('AddParticipantPage (spec 2.6)', { timeout: 30_000 }, () => {
  it('shows the header, the four sections, every field and the defaults', async () => {
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    expect(screen.getByRole('heading', { name: 'Add New Participant' })).toBeInTheDocument();
    expect(screen.getByText('Enroll a new participant in Passage')).toBeInTheDocument();
    for (const section of ['Personal Information', 'Custody Information', 'Emergency Contact', 'Consent']) {
      expect(screen.getByRole('group', { name: section })).toBeInTheDocument();
    }
    const personal = within(screen.getByRole('group', { name: 'Personal Information' }));
    for (const label of ['UID', 'First Name *', 'Last Name *', 'Middle Name', 'Date of Birth', 'Age', 'Gender', 'Phone', 'Email', 'Current Address']) {
      expect(personal.getByLabelText(label)).toBeInTheDocument();
    }
    expect(personal.getByLabelText('Age')).toHaveAttribute('placeholder', 'Calculated from DOB');
    expect(personal.getByLabelText('Gender')).toHaveValue('male');
    expect(within(personal.getByLabelText('Gender')).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual([
      'male',
      'female',
      'nonbinary',
      'prefer not to say',
    ]);
    const custody = within(screen.getByRole('group', { name: 'Custody Information' }));
    expect(custody.getByLabelText('Custody Status')).toHaveValue('in-custody');
    expect(custody.getByLabelText('CDCR Number')).toHaveAttribute('placeholder', 'If still incarcerated');
    for (const label of ['Case Manager', 'Projected Release Date', 'Actual Release Date', 'Address on Release']) expect(custody.getByLabelText(label)).toBeInTheDocument();
    const contact = within(screen.getByRole('group', { name: 'Emergency Contact' }));
    expect(contact.getByLabelText('Contact Name')).toBeInTheDocument();
    expect(contact.getByLabelText('Contact Phone')).toHaveAttribute('type', 'tel');
    expect(contact.getByLabelText('Relationship')).toHaveAttribute('placeholder', 'e.g., Mother, Spouse, Friend');
    const consent = within(screen.getByRole('group', { name: 'Consent' }));
    expect(consent.getByLabelText('Consent Signed')).not.toBeChecked();
    expect(consent.getByLabelText('Consent Date')).toHaveAttribute('type', 'date');
    expect(screen.getByRole('button', { name: 'Add Participant' })).toBeEnabled();
  });

  it('requires first and last name, with inline messages, and saves nothing', async () => {
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await userEvent.click(screen.getByRole('button', { name: 'Add Participant' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('First Name *')).toHaveFocus();
    expect(screen.getByLabelText('First Name *')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(screen.getByLabelText('First Name *'), 'Ana');
    expect(screen.queryByText('First name is required')).not.toBeInTheDocument();
    expect(await db.participants.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('fills the age from the date of birth in whole years, and keeps it editable', async () => {
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    const dob = screen.getByLabelText('Date of Birth');
    const age = screen.getByLabelText('Age');
    const today = new Date();
    fireEvent.change(dob, { target: { value: iso(subYears(today, 30)) } });
    expect(age).toHaveValue(30);
    // Birthday tomorrow: not yet 30.
    fireEvent.change(dob, { target: { value: iso(addDays(subYears(today, 30), 1)) } });
    expect(age).toHaveValue(29);
    await userEvent.clear(age);
    await userEvent.type(age, '31');
    expect(age).toHaveValue(31);
  });

  it('saves the participant with its outbox op, toasts and goes to Participants', async () => {
    const { router } = await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await userEvent.type(screen.getByLabelText('First Name *'), 'Ana');
    await userEvent.type(screen.getByLabelText('Last Name *'), 'Ruiz');
    await userEvent.type(screen.getByLabelText('Email'), 'ana@example.org');
    fireEvent.change(screen.getByLabelText('Date of Birth'), { target: { value: iso(subYears(new Date(), 41)) } });
    await userEvent.selectOptions(screen.getByLabelText('Custody Status'), 'released');
    await userEvent.click(screen.getByLabelText('Consent Signed'));
    await userEvent.click(screen.getByRole('button', { name: 'Add Participant' }));

    expect(await screen.findByText('Participant added successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Now on Participants')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/participants');

    const [row] = await db.participants.toArray();
    expect(row).toMatchObject({
      first_name: 'Ana',
      last_name: 'Ruiz',
      email: 'ana@example.org',
      age: 41,
      gender: 'male',
      custody_status: 'released',
      consent_signed: true,
      program_status: 'active',
      enrollment_date: iso(new Date()),
    });
    expect(row.id).toMatch(/^local-/);
    expect(row).not.toHaveProperty('middle_name');
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Participant', kind: 'create', record_id: row.id, user_id: COACH.id });
    expect(op.data.age).toBe(41);
  });

  it('shows "Adding..." while saving and the failure toast when the save fails', async () => {
    // An unexpected failure: the spec's toast alone (no reason for people), the error in the console.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    acceptWrites = refuseWrites(db, () => new Error('IDBDatabase: the transaction was aborted'));
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await userEvent.type(screen.getByLabelText('First Name *'), 'Ana');
    await userEvent.type(screen.getByLabelText('Last Name *'), 'Ruiz');
    await userEvent.click(screen.getByRole('button', { name: 'Add Participant' }));
    expect(await screen.findByText('Failed to add participant')).toBeInTheDocument();
    expect(screen.queryByText(/transaction was aborted/)).not.toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('Failed to add participant:', expect.objectContaining({ message: 'IDBDatabase: the transaction was aborted' }));
    // The form stays, filled in, ready to try again.
    expect(screen.getByRole('button', { name: 'Add Participant' })).toBeEnabled();
    expect(screen.getByLabelText('First Name *')).toHaveValue('Ana');
    expect(screen.queryByText('Now on Participants')).not.toBeInTheDocument();
    logged.mockRestore();
  });

  it('a full device says so in its own words under the failure toast (S12)', async () => {
    acceptWrites = fillStorage(db);
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await userEvent.type(screen.getByLabelText('First Name *'), 'Ana');
    await userEvent.type(screen.getByLabelText('Last Name *'), 'Ruiz');
    await userEvent.click(screen.getByRole('button', { name: 'Add Participant' }));
    expect(await screen.findByText('Failed to add participant')).toBeInTheDocument();
    expect(
      screen.getByText('This device is out of storage space, so the change was not saved. Free up space, then try again.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('First Name *')).toHaveValue('Ana');
    expect(await db.participants.count()).toBe(0);
  });

  it('disables the button with "Adding..." while the save is in flight', async () => {
    const release = (acceptWrites = holdWrites(db, db.participants));
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await userEvent.type(screen.getByLabelText('First Name *'), 'Ana');
    await userEvent.type(screen.getByLabelText('Last Name *'), 'Ruiz');
    await userEvent.click(screen.getByRole('button', { name: 'Add Participant' }));
    const busy = screen.getByRole('button', { name: 'Adding...' });
    expect(busy).toBeDisabled();
    await userEvent.click(busy);
    // Still saving while the write is held: the second click found the button disabled.
    expect(screen.getByRole('button', { name: 'Adding...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Now on Participants')).toBeInTheDocument();
    // A second click while saving did not add a second participant.
    expect(await db.participants.count()).toBe(1);
  });

  it('Cancel returns to Participants without saving', async () => {
    await renderPage(<AddParticipantPage />, { at: 'AddParticipant' });
    await userEvent.type(screen.getByLabelText('First Name *'), 'Ana');
    await userEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(await screen.findByText('Now on Participants')).toBeInTheDocument();
    expect(await db.participants.count()).toBe(0);
  });
});
