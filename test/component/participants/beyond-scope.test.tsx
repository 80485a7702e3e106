import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { INITIAL_STATUS } from '../../../src/data/sync/status-store';
import { SYNC_STATUS_KEY } from '../../../src/data/sync/types';
import { TABLET_SCOPE_KEY, type TabletScope } from '../../../src/data/sync/scope';
import { ParticipantsPage } from '../../../src/screens/participants/participants-page';
import { clearDb, COACH, pageData, renderPage } from '../render-page';
import { fakeEntityClient, type FakeEntityClient } from '../../support/fake-entity-client';

// Issue #22.2: the Participants list of a tablet that holds only some sites also asks the server.

let client: FakeEntityClient;

async function seed({ all = false, online = true } = {}) {
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Maria', last_name: 'Lopez', email: 'maria@example.org', enrollment_date: '2025-02-01' },
    { id: 'p2', first_name: 'James', last_name: 'Carter', enrollment_date: '2025-03-01' },
  ]);
  const scope: TabletScope = { userId: COACH.id, all, siteIds: ['s1'], defaultSiteIds: ['s1'], derivedAt: 0 };
  await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope });
  await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, firstSyncComplete: true, online } });
  client = fakeEntityClient({
    Participant: [
      // p1 is on the tablet: the server's copy is not listed again.
      { id: 'p1', first_name: 'Maria', last_name: 'Lopez', email: 'maria@example.org', enrollment_date: '2025-02-01' },
      { id: 'px', first_name: 'Rosa', last_name: 'Lopez', email: 'rosa@example.org', academy_uid: 'RA-9', custody_status: 'released', enrollment_date: '2025-04-01' },
    ],
    Enrollment: [{ id: 'ex', participant_id: 'px', cohort_id: 'cx', enrollment_status: 'active' }],
    Cohort: [{ id: 'cx', program_id: 'pr', site_id: 's9', cohort_code: 'FAR-1' }],
    Outcome: [],
  });
  pageData().client = client;
}

beforeEach(clearDb);
afterEach(cleanup);

const filterCalls = () => client.calls.filter((c) => c.method === 'filter' && c.entity === 'Participant');

describe('ParticipantsPage beyond the tablet (issue #22.2)', { timeout: 30_000 }, () => {
  it('online: lists the server matches not on this tablet in a marked section; opening one keeps it and goes to it', async () => {
    await seed();
    const { router } = await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await screen.findByText('2 participants');
    await userEvent.type(screen.getByPlaceholderText('Search by name or email...'), 'lopez');

    const section = (await screen.findByRole('heading', { name: 'Not on this tablet' })).closest('section')!;
    expect(within(section).getByText('From other sites — opening one keeps it on this tablet for a day.')).toBeInTheDocument();
    const cards = within(within(section).getByRole('list', { name: 'Participants not on this tablet' })).getAllByRole('listitem');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Rosa Lopez']);
    expect(within(cards[0]).getByText('UID: RA-9')).toBeInTheDocument();
    // The local result and its count are unchanged: Maria only.
    expect(screen.getByText('1 participant')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Participants' })).getByRole('heading', { name: 'Maria Lopez' })).toBeInTheDocument();
    expect(filterCalls()).toHaveLength(1); // debounced: one question for the whole word

    await userEvent.click(within(cards[0]).getByRole('link'));
    expect(await screen.findByText('Now on ParticipantDetail (id px)')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/participantdetail');
    expect(await db.participants.get('px')).toMatchObject({ first_name: 'Rosa' });
    expect(await db.cohorts.get('cx')).toMatchObject({ cohort_code: 'FAR-1' });
    expect((await db.pins.toArray()).map((p) => `${p.entity}:${p.id}:${p.reason}`).sort()).toEqual(['Cohort:cx:opened', 'Participant:px:opened']);
  });

  it('no local match online: "No participants found", then the server match below', async () => {
    await seed();
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await screen.findByText('2 participants');
    await userEvent.type(screen.getByPlaceholderText('Search by name or email...'), 'rosa');
    expect(await screen.findByText('No participants found')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Rosa Lopez' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Not on this tablet' })).toBeInTheDocument();
  });

  it('offline with no local match: says the participant may be on other sites, never a bare empty list', async () => {
    await seed({ online: false });
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await screen.findByText('2 participants');
    await userEvent.type(screen.getByPlaceholderText('Search by name or email...'), 'rosa');
    expect(await screen.findByText('Not on this tablet. Participants of other sites can be found when you are online.')).toBeInTheDocument();
    expect(screen.getByText('No participants found')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Not on this tablet' })).not.toBeInTheDocument();
    expect(client.calls).toHaveLength(0);
  });

  it('offline with local matches: one line says other sites were not searched', async () => {
    await seed({ online: false });
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await screen.findByText('2 participants');
    await userEvent.type(screen.getByPlaceholderText('Search by name or email...'), 'maria');
    expect(await screen.findByText('Participants of other sites can be found when you are online.')).toBeInTheDocument();
    expect(screen.getByText('1 participant')).toBeInTheDocument();
  });

  it('a tablet holding every site never asks the server', async () => {
    await seed({ all: true });
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await screen.findByText('2 participants');
    await userEvent.type(screen.getByPlaceholderText('Search by name or email...'), 'rosa');
    expect(await screen.findByText('No participants found')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 500));
    expect(client.calls).toHaveLength(0);
    expect(screen.queryByText('Not on this tablet', { exact: false })).not.toBeInTheDocument();
    expect(screen.getByText('Try another name, email or status.')).toBeInTheDocument();
  });
});
