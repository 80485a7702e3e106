import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { ParticipantDetailPage } from '../../../src/screens/participant-detail/participant-detail-page';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { formatAuditTime } from '../../../src/domain/audit-event';
import { ADMIN, clearDb, COACH, pageData, renderPage } from '../render-page';
import { auditRow, auditServer, type AuditServer } from '../../support/audit-server';

/** Issue #26: the History section of ParticipantDetail and CohortDetail (administrators, online). */

let server: AuditServer;

beforeEach(async () => {
  await clearDb();
  server = auditServer();
  pageData().client = server.client;
  await db.participants.put({ id: 'p1', academy_uid: 'RA-0001', first_name: 'Maria', last_name: 'Lopez', updated_date: '2026-03-01T00:00:00Z' });
  await db.cohorts.put({ id: 'c1', program_id: 'x', site_id: 'y', cohort_code: 'FL-SQ-2026Q1', start_date: '2026-01-06', status: 'active' });
});
afterEach(() => {
  cleanup();
  pageData().client = null;
});

const history = () => within(screen.getByRole('region', { name: 'History' }));

describe('History on ParticipantDetail', () => {
  it('shows the record’s events newest first, a few at first, then more', async () => {
    for (let i = 0; i < 12; i++) {
      server.events.push(auditRow({ created_date: new Date(Date.UTC(2026, 2, 1, 9, i)).toISOString(), changes: { phone: { old: String(i), new: String(i + 1) } } }));
    }
    server.events.push(auditRow({ record_id: 'someone-else' }));
    const user = userEvent.setup();
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1', user: ADMIN });
    await screen.findByRole('region', { name: 'History' });
    await waitFor(() => expect(history().getAllByRole('listitem')).toHaveLength(5));
    expect(server.lists[0]).toMatchObject({ q: { entity: 'Participant', record_id: 'p1' }, limit: 5 });
    // Newest first: the 12th change (11 → 12) leads.
    expect(history().getAllByRole('listitem')[0]).toHaveTextContent(/Phone\s*11\s*12/);
    await user.click(history().getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(history().getAllByRole('listitem')).toHaveLength(12));
    expect(history().queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    expect(history().getByRole('link', { name: 'Open in Audit' })).toHaveAttribute('href', '/audit?entity=Participant&record=p1');
  });

  it('an offline edit shows its tablet time and its arrival; who made it and from which tablet', async () => {
    server.events.push(
      auditRow({
        actor_email: 'cora@example.org',
        device_id: 'CoraTab1xxxxxxxx',
        created_date: '2026-03-10T15:12:04.000Z',
        client_time: '2026-03-10T09:30:00.000Z',
        changes: { custody_status: { old: 'in-custody', new: 'released' } },
      }),
    );
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1', user: ADMIN });
    const [item] = await waitFor(() => history().getAllByRole('listitem'));
    expect(item).toHaveTextContent(`Edited on the tablet at ${formatAuditTime('2026-03-10T09:30:00.000Z')}, arrived ${formatAuditTime('2026-03-10T15:12:04.000Z')}`);
    expect(item).toHaveTextContent('cora@example.org');
    expect(item).toHaveTextContent('Tablet CoraTab1');
    expect(item).toHaveTextContent(/Custody status\s*in-custody\s*released/);
  });

  it('says so when there is nothing yet, and when offline', async () => {
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1', user: ADMIN });
    expect(await screen.findByText('No changes recorded yet')).toBeInTheDocument();
    cleanup();
    server.offline = true;
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1', user: ADMIN });
    expect(await screen.findByText('The audit trail can be read when online.')).toBeInTheDocument();
  });

  it('a coach sees no History, and the page asks the server nothing for it', async () => {
    server.events.push(auditRow());
    await renderPage(<ParticipantDetailPage id="p1" />, { at: 'ParticipantDetail', id: 'p1', user: COACH });
    await screen.findByText('UID: RA-0001');
    expect(screen.queryByRole('region', { name: 'History' })).not.toBeInTheDocument();
    expect(server.lists).toEqual([]);
  });
});

describe('History on CohortDetail', () => {
  it('lists the cohort’s own events', async () => {
    server.events.push(auditRow({ entity: 'Cohort', record_id: 'c1', changes: { capacity: { old: 20, new: 24 } } }), auditRow({ entity: 'Participant', record_id: 'c1' }));
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    await screen.findByRole('region', { name: 'History' });
    await waitFor(() => expect(history().getAllByRole('listitem')).toHaveLength(1));
    expect(server.lists[0].q).toEqual({ entity: 'Cohort', record_id: 'c1' });
    expect(history().getByRole('listitem')).toHaveTextContent(/Capacity\s*20\s*24/);
  });
});
