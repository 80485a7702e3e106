import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import type { Participant } from '../../../shared/entities';
import { ParticipantDetailPage } from '../../../src/screens/participant-detail/participant-detail-page';
import { fillStorage } from '../../support/full-storage';
import { clearDb, COACH, renderPage } from '../render-page';

// The real commands; a test that needs a failed save fills the device's storage (fillStorage).
let freeStorage = () => {};
beforeEach(async () => {
  await clearDb();
});
afterEach(() => {
  freeStorage();
  freeStorage = () => {};
  cleanup();
});

const maria: Participant = {
  id: 'p1',
  academy_uid: 'RA-0001',
  first_name: 'Maria',
  last_name: 'Lopez',
  date_of_birth: '1990-06-15',
  age: 35,
  gender: 'female',
  phone: '555-0101',
  custody_status: 'in-custody',
  projected_release_date: '2026-03-01',
  case_manager: 'Dana Cruz',
  consent_signed: true,
  consent_date: '2025-01-10',
  updated_date: '2025-01-10T00:00:00.000Z',
};

async function seed(p: Participant = maria) {
  await db.participants.put(p);
  await db.cohorts.bulkPut([
    { id: 'c1', program_id: 'x', site_id: 'y', cohort_code: 'FL-SQ-2025Q1', start_date: '2025-01-06' },
    { id: 'c2', program_id: 'x', site_id: 'y', cohort_code: 'FL-SQ-2024Q3', start_date: '2024-07-01' },
  ]);
  await db.enrollments.bulkPut([
    { id: 'e1', participant_id: 'p1', cohort_id: 'c1', intake_date: '2025-01-05', enrollment_status: 'active' },
    { id: 'e2', participant_id: 'p1', cohort_id: 'c2', intake_date: '2024-07-01', enrollment_status: 'withdrawn' },
    { id: 'e3', participant_id: 'other', cohort_id: 'c1', intake_date: '2025-01-05', enrollment_status: 'active' },
  ]);
  await db.outcomes.bulkPut([
    { id: 'o1', participant_id: 'p1' },
    { id: 'o2', participant_id: 'p1' },
    { id: 'o3', participant_id: 'p1' },
    { id: 'o4', participant_id: 'other' },
  ]);
}

const section = (name: string) => within(screen.getByRole('heading', { name }).parentElement!.parentElement!);
const valueOf = (scope: ReturnType<typeof within>, label: string) => scope.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('ParticipantDetailPage (spec 2.7)', { timeout: 30_000 }, () => {
  it('shows a skeleton while loading, then "Participant not found" for an unknown id', async () => {
    await renderPage(<ParticipantDetailPage id="nope" />, { at: 'ParticipantDetail', id: 'nope' });
    expect(screen.getByRole('status', { name: 'Loading participant' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Participant not found' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Back to Participants' }));
    expect(await screen.findByText('Now on Participants')).toBeInTheDocument();
  });

  it('shows the header, the profile sections with N/A and formatted dates', async () => {
    await seed();
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Maria Lopez' })).toBeInTheDocument();
    expect(screen.getByText('UID: RA-0001')).toBeInTheDocument();
    const personal = section('Personal Information');
    expect(valueOf(personal, 'Date of Birth')).toBe('Jun 15, 1990');
    expect(valueOf(personal, 'Age')).toBe('35');
    expect(valueOf(personal, 'Gender')).toBe('Female');
    expect(valueOf(personal, 'Middle Name')).toBe('N/A');
    expect(valueOf(personal, 'Email')).toBe('N/A');
    const custody = section('Custody Information');
    expect(valueOf(custody, 'Custody Status')).toBe('in custody');
    expect(valueOf(custody, 'Projected Release')).toBe('Mar 1, 2026');
    expect(custody.queryByText('Actual Release')).not.toBeInTheDocument();
    expect(valueOf(custody, 'Case Manager')).toBe('Dana Cruz');
    expect(valueOf(section('Emergency Contact'), 'Relationship')).toBe('N/A');
  });

  it('lists cohort enrollments linking to the cohort, quick stats and the consent card', async () => {
    await seed();
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    await screen.findByRole('heading', { name: 'Cohort Enrollments' });
    const enrollments = section('Cohort Enrollments');
    const links = await enrollments.findAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute('href', '/cohortdetail?id=c1');
    expect(within(links[0]).getByText('FL-SQ-2025Q1')).toBeInTheDocument();
    expect(within(links[0]).getByText('Enrolled: Jan 5, 2025')).toBeInTheDocument();
    expect(within(links[0]).getByText('active')).toBeInTheDocument();
    expect(within(links[0]).getByText('Started: Jan 6, 2025')).toBeInTheDocument();
    expect(within(links[1]).getByText('withdrawn')).toBeInTheDocument();

    const stats = section('Quick Stats');
    expect(await stats.findByText('Outcome Records')).toBeInTheDocument();
    expect(stats.getByText('Active Cohorts').nextElementSibling).toHaveTextContent('1');
    expect(stats.getByText('Total Enrollments').nextElementSibling).toHaveTextContent('2');
    expect(stats.getByText('Outcome Records').nextElementSibling).toHaveTextContent('3');

    expect(screen.getByText('✓ Consent Signed')).toBeInTheDocument();
    expect(screen.getByText('Jan 10, 2025')).toBeInTheDocument();
  });

  it('shows "Not enrolled in any cohorts" and no consent card when consent is not signed', async () => {
    await db.participants.put({ id: 'p5', first_name: 'Lee', last_name: 'Park', consent_signed: false });
    await renderPage(<ParticipantDetailPage id="p5" />, { at: 'ParticipantDetail', id: 'p5' });
    expect(await screen.findByText('Not enrolled in any cohorts')).toBeInTheDocument();
    expect(screen.getByText('UID: N/A')).toBeInTheDocument();
    expect(screen.queryByText('✓ Consent Signed')).not.toBeInTheDocument();
  });

  it('finds a participant by the temporary id it had before sync (alias)', async () => {
    await seed();
    await db.aliases.put({ temp_id: 'local-abc', entity: 'Participant', server_id: 'p1' });
    await renderPage(<ParticipantDetailPage id="local-abc" />, { at: 'ParticipantDetail', id: 'local-abc' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Maria Lopez' })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Cohort Enrollments' });
    expect(await section('Cohort Enrollments').findAllByRole('link')).toHaveLength(2);
  });

  it('edits inline, sends only the changed fields and toasts', async () => {
    await seed();
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    expect(screen.queryByRole('button', { name: 'Edit Profile' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('UID')).toHaveFocus();
    expect(screen.getByLabelText('First Name *')).toHaveValue('Maria');
    expect(screen.getByLabelText('Custody Status')).toHaveValue('in-custody');
    expect(screen.getByLabelText('Consent Signed')).toBeChecked();

    await userEvent.clear(screen.getByLabelText('Phone'));
    await userEvent.type(screen.getByLabelText('Email'), 'maria@example.org');
    await userEvent.selectOptions(screen.getByLabelText('Custody Status'), 'released');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Participant updated successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Edit Profile' })).toHaveFocus();
    expect(valueOf(section('Personal Information'), 'Email')).toBe('maria@example.org');
    expect(valueOf(section('Custody Information'), 'Custody Status')).toBe('released');

    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ entity: 'Participant', kind: 'update', record_id: 'p1', user_id: COACH.id });
    expect(ops[0].data).toEqual({ phone: null, email: 'maria@example.org', custody_status: 'released' });
  });

  it('Cancel leaves edit mode without saving; invalid input keeps the form open', async () => {
    await seed();
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    await userEvent.clear(screen.getByLabelText('Last Name *'));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Last Name *')).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Maria Lopez' })).toBeInTheDocument();
    expect(await db.outbox.count()).toBe(0);
  });

  it('keeps the form and the input when saving fails, with an error toast', async () => {
    await seed();
    freeStorage = fillStorage(db);
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    await userEvent.type(screen.getByLabelText('Middle Name'), 'Elena');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update participant. Your changes are still in the form.')).toBeInTheDocument();
    expect(screen.getByLabelText('Middle Name')).toHaveValue('Elena');
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    expect(await db.outbox.count()).toBe(0);
  });

  it('keeps showing the participant when sync swaps its temporary id for the server id', async () => {
    await db.participants.put({ ...maria, id: 'local-1' });
    await renderPage(<ParticipantDetailPage id="local-1" />, { at: 'ParticipantDetail', id: 'local-1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Maria Lopez' })).toBeInTheDocument();
    // What the engine does on a confirmed create (S2): one transaction rewrites the id and adds the alias.
    await db.transaction('rw', db.participants, db.aliases, async () => {
      await db.participants.delete('local-1');
      await db.participants.put({ ...maria, id: 'srv-1', middle_name: 'Elena' });
      await db.aliases.put({ temp_id: 'local-1', entity: 'Participant', server_id: 'srv-1' });
    });
    expect(await screen.findByText('Elena')).toBeInTheDocument();
    expect(screen.queryByText('Participant not found')).not.toBeInTheDocument();
  });

  it('an edit does not overwrite a field that sync changed while the form was open', async () => {
    await seed();
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    // Another coach's change to the phone arrives through sync while this form is open.
    await db.participants.update('p1', { phone: '555-0199', updated_date: '2025-02-01T00:00:00.000Z' });
    await userEvent.type(screen.getByLabelText('Email'), 'maria@example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Participant updated successfully!')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    expect(op.data).toEqual({ email: 'maria@example.org' });
    expect((await db.participants.get('p1'))?.phone).toBe('555-0199');
  });
});
