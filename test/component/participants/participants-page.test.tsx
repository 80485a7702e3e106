import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import type { Participant } from '../../../shared/entities';
import { ParticipantsPage } from '../../../src/screens/participants/participants-page';
import { clearDb, renderPage } from '../render-page';

beforeEach(clearDb);
afterEach(cleanup);

const people: Participant[] = [
  {
    id: 'p1',
    first_name: 'Maria',
    last_name: 'Lopez',
    academy_uid: 'RA-0001',
    email: 'maria@example.org',
    phone: '555-0101',
    custody_status: 'in-custody',
    projected_release_date: '2026-03-01',
    case_manager: 'Dana Cruz',
    program_status: 'active',
    enrollment_date: '2025-02-01',
  },
  { id: 'p2', first_name: 'James', last_name: 'Carter', custody_status: 'released', projected_release_date: '2024-05-01', program_status: 'completed', enrollment_date: '2025-03-01' },
  { id: 'p3', first_name: 'Ana', last_name: 'Marianov', custody_status: 'in-custody', program_status: 'on_hold', enrollment_date: '2024-12-01' },
];

async function seed() {
  await db.participants.bulkPut(people);
  await db.cohorts.bulkPut([
    { id: 'c1', program_id: 'x', site_id: 'y', cohort_code: 'FL-SQ-2025Q1' },
    { id: 'c2', program_id: 'x', site_id: 'y', cohort_code: 'FL-SQ-2025Q2' },
  ]);
  await db.enrollments.bulkPut([
    { id: 'e1', participant_id: 'p1', cohort_id: 'c2', enrollment_status: 'active' },
    { id: 'e2', participant_id: 'p1', cohort_id: 'c1', enrollment_status: 'active' },
    { id: 'e3', participant_id: 'p2', cohort_id: 'c1', enrollment_status: 'withdrawn' },
  ]);
}

const cardNames = () => screen.queryAllByRole('listitem').map((li) => within(li).getByRole('heading').textContent);

describe('ParticipantsPage (spec 2.5)', { timeout: 30_000 }, () => {
  it('shows the header and 6 skeleton cards while loading', async () => {
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    expect(screen.getByRole('heading', { name: 'Participants' })).toBeInTheDocument();
    expect(screen.getByText('Manage and track all program participants')).toBeInTheDocument();
    expect(within(screen.getByRole('status', { name: 'Loading participants' })).getAllByTestId('skeleton-card')).toHaveLength(6);
    expect(await screen.findByText('No participants found')).toBeInTheDocument();
  });

  it('lists cards newest enrollment first, each with its details, linking to the participant', async () => {
    await seed();
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    expect(await screen.findByText('3 participants')).toBeInTheDocument();
    expect(cardNames()).toEqual(['James Carter', 'Maria Lopez', 'Ana Marianov']);

    const maria = screen.getByRole('heading', { name: 'Maria Lopez' }).closest('a')!;
    expect(maria).toHaveAttribute('href', '/participantdetail?id=p1');
    const card = within(maria);
    expect(card.getByText('UID: RA-0001')).toBeInTheDocument();
    expect(card.getByText('IN CUSTODY')).toBeInTheDocument();
    expect(card.getByText('maria@example.org')).toBeInTheDocument();
    expect(card.getByText('555-0101')).toBeInTheDocument();
    expect(card.getByText('Release: March 1, 2026')).toBeInTheDocument();
    expect(card.getByText('Active Cohorts')).toBeInTheDocument();
    expect(card.getByText('FL-SQ-2025Q1, FL-SQ-2025Q2')).toBeInTheDocument();
    expect(card.getByText('Case Manager')).toBeInTheDocument();
    expect(card.getByText('Dana Cruz')).toBeInTheDocument();

    // Released: no release line even with a date; withdrawn enrollments are not active cohorts.
    const james = within(screen.getByRole('heading', { name: 'James Carter' }).closest('a')!);
    expect(james.getByText('RELEASED')).toBeInTheDocument();
    expect(james.queryByText(/^Release:/)).not.toBeInTheDocument();
    expect(james.queryByText('FL-SQ-2025Q1')).not.toBeInTheDocument();
    expect(james.queryByText('Case Manager')).not.toBeInTheDocument();
    expect(james.queryByText(/^UID:/)).not.toBeInTheDocument();
  });

  it('searches first name, last name and email case-insensitively, and counts the matches', async () => {
    await seed();
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    const search = await screen.findByPlaceholderText('Search by name or email...');
    await screen.findByText('3 participants');
    await userEvent.type(search, 'MARIA');
    await waitFor(() => expect(cardNames()).toEqual(['Maria Lopez', 'Ana Marianov']));
    expect(screen.getByText('2 participants')).toBeInTheDocument();
    await userEvent.clear(search);
    await userEvent.type(search, 'maria@EXAMPLE');
    await waitFor(() => expect(cardNames()).toEqual(['Maria Lopez']));
    expect(screen.getByText('1 participant')).toBeInTheDocument();
    await userEvent.clear(search);
    await userEvent.type(search, 'nobody');
    expect(await screen.findByText('No participants found')).toBeInTheDocument();
    expect(screen.getByText('0 participants')).toBeInTheDocument();
  });

  it('filters by program status', async () => {
    await seed();
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    const select = await screen.findByRole('combobox', { name: 'Filter by program status' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['All Status', 'Active', 'Completed', 'On Hold', 'Withdrawn']);
    await screen.findByText('3 participants');
    await userEvent.selectOptions(select, 'On Hold');
    await waitFor(() => expect(cardNames()).toEqual(['Ana Marianov']));
    await userEvent.selectOptions(select, 'Withdrawn');
    expect(await screen.findByText('No participants found')).toBeInTheDocument();
    await userEvent.selectOptions(select, 'All Status');
    await waitFor(() => expect(cardNames()).toHaveLength(3));
  });

  it('opens the participant when a card is clicked', async () => {
    await seed();
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await userEvent.click(await screen.findByRole('heading', { name: 'Ana Marianov' }));
    expect(await screen.findByText('Now on ParticipantDetail (id p3)')).toBeInTheDocument();
  });

  it('renders only the visible cards of 10,000 participants and searches them', async () => {
    const many: Participant[] = Array.from({ length: 10_000 }, (_, i) => ({
      id: `p${i}`,
      first_name: `First${i}`,
      last_name: `Last${i}`,
      email: `person${i}@example.org`,
      custody_status: i % 2 ? 'in-custody' : 'released',
      program_status: 'active',
      enrollment_date: `2025-01-01`,
    }));
    await db.participants.bulkPut(many);
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    expect(await screen.findByText('10000 participants', {}, { timeout: 10_000 })).toBeInTheDocument();
    const cards = screen.getAllByRole('listitem');
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThan(60);
    expect(cards[0]).toHaveAttribute('aria-setsize', '10000');

    await userEvent.type(screen.getByPlaceholderText('Search by name or email...'), 'last9999');
    await waitFor(() => expect(cardNames()).toEqual(['First9999 Last9999']));
    expect(screen.getByText('1 participant')).toBeInTheDocument();
  }, 30_000);

  it('shows a participant created elsewhere without a reload', async () => {
    await seed();
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await screen.findByText('3 participants');
    await db.participants.put({ id: 'p9', first_name: 'Zoe', last_name: 'New', program_status: 'active', enrollment_date: '2025-06-01' });
    expect(await screen.findByText('4 participants')).toBeInTheDocument();
    expect(cardNames()[0]).toBe('Zoe New');
  });
});
