import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { INITIAL_STATUS } from '../../../src/data/sync/status-store';
import { SYNC_STATUS_KEY } from '../../../src/data/sync/types';
import { TABLET_SCOPE_KEY, type TabletScope } from '../../../src/data/sync/scope';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { clearDb, COACH, pageData, renderPage } from '../render-page';
import { seedCohort } from './seed';
import { fakeEntityClient, type FakeEntityClient } from '../../support/fake-entity-client';

// Issue #22.2: the enrol search of a tablet that holds only some sites also asks the server.
vi.setConfig({ testTimeout: 30_000 });

let client: FakeEntityClient;

async function seed({ online = true } = {}) {
  await seedCohort();
  const scope: TabletScope = { userId: COACH.id, all: false, siteIds: ['s1'], defaultSiteIds: ['s1'], derivedAt: 0 };
  await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope });
  await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, firstSyncComplete: true, online } });
  client = fakeEntityClient({
    Participant: [
      // On the tablet already: listed once, among the local results.
      { id: 'p3', first_name: 'Marisol', last_name: 'Ortega', academy_uid: 'RA-003', custody_status: 'in-custody', enrollment_date: '2025-01-01' },
      { id: 'px', first_name: 'Mary', last_name: 'Beyond', academy_uid: 'RA-900', custody_status: 'released', enrollment_date: '2025-02-01' },
    ],
    Enrollment: [],
    Cohort: [],
    Outcome: [],
  });
  pageData().client = client;
}

beforeEach(clearDb);
afterEach(cleanup);

async function openEnrol() {
  const user = userEvent.setup();
  await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
  await screen.findByText('Enrolled Participants (2 active)');
  await user.click(screen.getByRole('button', { name: 'Enroll Participant' }));
  return user;
}

const enrolButton = () => screen.getAllByRole('button', { name: 'Enroll Participant' }).find((b) => b.getAttribute('type') === 'submit')!;

describe('CohortDetailPage enrol search beyond the tablet (issue #22.2)', () => {
  it('lists the server matches not on this tablet after the local ones; choosing one keeps it, then it enrols as usual', async () => {
    await seed();
    const user = await openEnrol();
    await user.type(screen.getByLabelText('Search Participant'), 'mar');
    const local = screen.getByRole('list', { name: 'Matching participants' });
    const beyond = await screen.findByRole('list', { name: 'Participants not on this tablet' });
    expect(local.compareDocumentPosition(beyond) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText('Not on this tablet', { selector: 'p' })).toBeInTheDocument();
    const buttons = within(beyond).getAllByRole('button');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveTextContent('Mary Beyond');
    expect(buttons[0]).toHaveTextContent('UID: RA-900');
    expect(buttons[0]).toHaveTextContent('Not on this tablet');

    let open!: () => void;
    client.gate = new Promise((resolve) => (open = resolve));
    await user.click(buttons[0]);
    expect(await within(beyond).findByText('Keeping on this tablet…')).toBeInTheDocument();
    expect(enrolButton()).toBeDisabled();
    open();
    await vi.waitFor(() => expect(screen.getByLabelText('Search Participant')).toHaveValue('Mary Beyond'));
    expect(await db.participants.get('px')).toMatchObject({ first_name: 'Mary' });
    expect(await db.pins.get(['Participant', 'px', 'opened'])).toBeTruthy();
    expect(enrolButton()).toBeEnabled();

    await user.click(enrolButton());
    expect(await screen.findByText('Participant enrolled successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Enrolled Participants (3 active)')).toBeInTheDocument();
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ entity: 'Enrollment', kind: 'create', data: expect.objectContaining({ participant_id: 'px', cohort_id: 'c1' }) });
  });

  it('offline with no local match: "No participants found" and says where the others are', async () => {
    await seed({ online: false });
    const user = await openEnrol();
    await user.type(screen.getByLabelText('Search Participant'), 'beyond');
    expect(screen.getByText('No participants found')).toBeInTheDocument();
    expect(await screen.findByText('Not on this tablet. Participants of other sites can be found when you are online.')).toBeInTheDocument();
    expect(client.calls).toHaveLength(0);
  });

  it('choosing one while the connection drops says so and chooses nothing', async () => {
    await seed();
    const user = await openEnrol();
    await user.type(screen.getByLabelText('Search Participant'), 'beyond');
    const beyond = await screen.findByRole('list', { name: 'Participants not on this tablet' });
    client.offline = true;
    await user.click(within(beyond).getByRole('button', { name: /Mary Beyond/ }));
    expect(await screen.findByText('You are offline. Participants of other sites can be opened when you are online.')).toBeInTheDocument();
    expect(enrolButton()).toBeDisabled();
    expect(await db.participants.get('px')).toBeUndefined();
  });
});
