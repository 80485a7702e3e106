import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { INITIAL_STATUS } from '../../../src/data/sync/status-store';
import { SYNC_STATUS_KEY } from '../../../src/data/sync/types';
import { TABLET_SCOPE_KEY, type TabletScope } from '../../../src/data/sync/scope';
import { ParticipantDetailPage } from '../../../src/screens/participant-detail/participant-detail-page';
import { clearDb, COACH, pageData, renderPage } from '../render-page';
import { fakeEntityClient, type FakeEntityClient } from '../../support/fake-entity-client';

// Issue #22.2: ParticipantDetail of a participant this tablet does not hold.

let client: FakeEntityClient;

async function seed({ all = false, online = true } = {}) {
  const scope: TabletScope = { userId: COACH.id, all, siteIds: ['s1'], defaultSiteIds: ['s1'], derivedAt: 0 };
  await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope });
  await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, firstSyncComplete: true, online } });
  client = fakeEntityClient({
    Participant: [{ id: 'px', first_name: 'Rosa', last_name: 'Lopez', academy_uid: 'RA-9', custody_status: 'released' }],
    Enrollment: [{ id: 'ex', participant_id: 'px', cohort_id: 'cx', intake_date: '2025-01-05', enrollment_status: 'active' }],
    Cohort: [{ id: 'cx', program_id: 'pr', site_id: 's9', cohort_code: 'FAR-1', start_date: '2025-01-06' }],
    Outcome: [{ id: 'o1', participant_id: 'px' }],
  });
  pageData().client = client;
}

beforeEach(clearDb);
afterEach(cleanup);

describe('ParticipantDetailPage beyond the tablet (issue #22.2)', { timeout: 30_000 }, () => {
  it('online: looks for the participant on the server, keeps it on the tablet and shows it', async () => {
    await seed();
    let open!: () => void;
    client.gate = new Promise((resolve) => (open = resolve));
    await renderPage(<ParticipantDetailPage id="px" />, { at: 'ParticipantDetail', id: 'px' });
    expect(await screen.findByText('Looking for this participant on the server…')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading participant' })).toBeInTheDocument();
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Rosa Lopez' })).toBeInTheDocument();
    expect(screen.getByText('UID: RA-9')).toBeInTheDocument();
    const enrollments = within(screen.getByRole('heading', { name: 'Cohort Enrollments' }).parentElement!.parentElement!);
    expect(await enrollments.findByText('FAR-1')).toBeInTheDocument();
    expect(screen.queryByText('Participant not found')).not.toBeInTheDocument();
    expect((await db.pins.toArray()).map((p) => `${p.entity}:${p.id}`).sort()).toEqual(['Cohort:cx', 'Participant:px']);
    expect(client.calls.filter((c) => c.method === 'get')).toHaveLength(1);
  });

  it('online, and the server has no such participant: "Participant not found"', async () => {
    await seed();
    await renderPage(<ParticipantDetailPage id="gone" />, { at: 'ParticipantDetail', id: 'gone' });
    expect(await screen.findByRole('heading', { name: 'Participant not found' })).toBeInTheDocument();
    expect(client.calls.map((c) => `${c.method} ${c.entity}`)).toEqual(['get Participant']);
  });

  it('offline: "Not on this tablet" with what to do and the way back — never "Participant not found"', async () => {
    await seed({ online: false });
    await renderPage(<ParticipantDetailPage id="px" />, { at: 'ParticipantDetail', id: 'px' });
    expect(await screen.findByRole('heading', { name: 'Not on this tablet' })).toBeInTheDocument();
    expect(
      screen.getByText('This participant is not on this tablet. Connect to the internet to open it, or add their site under Sync → Sites on this tablet.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Participant not found')).not.toBeInTheDocument();
    expect(client.calls).toHaveLength(0);
    await userEvent.click(screen.getByRole('link', { name: 'Back to Participants' }));
    expect(await screen.findByText('Now on Participants')).toBeInTheDocument();
  });

  it('no answer from the server counts as offline', async () => {
    await seed();
    client.offline = true;
    await renderPage(<ParticipantDetailPage id="px" />, { at: 'ParticipantDetail', id: 'px' });
    expect(await screen.findByRole('heading', { name: 'Not on this tablet' })).toBeInTheDocument();
    expect(screen.queryByText('Participant not found')).not.toBeInTheDocument();
  });

  it('a server error says so and can be tried again', async () => {
    await seed();
    const real = client.entities.bind(client);
    let refuse = true;
    client.entities = (name: string) => {
      const api = real(name);
      return { ...api, get: (id: string) => (refuse ? Promise.reject(Object.assign(new Error('Server error'), { status: 500 })) : api.get(id)) };
    };
    await renderPage(<ParticipantDetailPage id="px" />, { at: 'ParticipantDetail', id: 'px' });
    expect(await screen.findByText(/the server could not open it: Server error/)).toBeInTheDocument();
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Rosa Lopez' })).toBeInTheDocument();
  });

  it('a tablet holding every site does not ask: an unknown id is "Participant not found"', async () => {
    await seed({ all: true });
    await renderPage(<ParticipantDetailPage id="px" />, { at: 'ParticipantDetail', id: 'px' });
    expect(await screen.findByRole('heading', { name: 'Participant not found' })).toBeInTheDocument();
    expect(client.calls).toHaveLength(0);
  });
});
