import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuditPage } from '../../../src/screens/audit/audit-page';
import { db } from '../../../src/data/db';
import { readExportNotices } from '../../../src/data/sync/export-notices';
import { formatAuditTime } from '../../../src/domain/audit-event';
import { ADMIN, clearDb, COACH, pageData, renderPage } from '../render-page';
import { auditRow, auditServer, type AuditServer } from '../../support/audit-server';

/**
 * Issue #26: the Audit page, against a scripted server that answers the entity API's v2/list for
 * AuditEvent as the contract says (filters, newest first, cursor pages).
 */

let server: AuditServer;

beforeEach(async () => {
  await clearDb();
  server = auditServer();
  pageData().client = server.client;
});
afterEach(() => {
  cleanup();
  pageData().client = null;
  vi.restoreAllMocks();
});

const lastQuery = () => server.lists[server.lists.length - 1].q;
const events = () => within(screen.getByRole('list', { name: 'Events' })).getAllByRole('listitem');

describe('Audit page (issue #26)', () => {
  it('lists the newest events first: who, which tablet, what changed old → new, the outcome', async () => {
    await db.participants.put({ id: 'p1', first_name: 'Maria', last_name: 'Lopez', updated_date: '2026-03-01T00:00:00Z' });
    server.events.push(
      auditRow({ created_date: '2026-03-10T09:00:00.000Z', action: 'sign_in', entity: null, record_id: null, actor_email: 'cora@example.org' }),
      auditRow({
        created_date: '2026-03-10T10:00:00.000Z',
        actor_email: 'cora@example.org',
        device_id: 'CoraTab1xxxxxxxx',
        changes: { custody_status: { old: 'in-custody', new: 'released' }, phone: { old: null, new: '555-0199' } },
      }),
      auditRow({ created_date: '2026-03-10T11:00:00.000Z', action: 'sign_in_failed', outcome: 'failure', reason: 'invalid_credentials', entity: null, record_id: null, actor_email: 'x@example.org' }),
    );
    await renderPage(<AuditPage />, { at: 'Audit', user: ADMIN });
    await screen.findByRole('list', { name: 'Events' });
    const rows = events();
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['Sign-in failed by x@example.org', 'Changed by cora@example.org', 'Signed in by cora@example.org']);
    expect(within(rows[0]).getByText('Failed')).toBeInTheDocument();
    expect(within(rows[0]).getByText('invalid_credentials')).toBeInTheDocument();
    const update = rows[1];
    expect(within(update).getByText('Succeeded')).toBeInTheDocument();
    expect(within(update).getByText('Tablet CoraTab1')).toBeInTheDocument();
    // The record by its name on this tablet, linked to its page.
    expect(await within(update).findByRole('link', { name: 'Maria Lopez' })).toHaveAttribute('href', '/participantdetail?id=p1');
    const custody = within(update).getByText('Custody status').nextElementSibling as HTMLElement;
    expect(custody).toHaveTextContent(/^in-custody\s*released$/);
    expect(within(custody).getByLabelText('to')).toBeInTheDocument();
    expect(within(custody).getByText('in-custody').closest('.line-through')).not.toBeNull();
    expect(within(update).getByText('Phone').nextElementSibling).toHaveTextContent(/^empty\s*555-0199$/);
    expect(update).toHaveTextContent(formatAuditTime('2026-03-10T10:00:00.000Z'));
    expect(update).not.toHaveTextContent('Edited on the tablet');
    expect(server.lists[0]).toMatchObject({ q: {}, sort: '-created_date', limit: 50, cursor: null });
  });

  it('an edit made offline shows when it was made on the tablet and when it arrived', async () => {
    server.events.push(auditRow({ created_date: '2026-03-10T15:12:04.000Z', client_time: '2026-03-10T09:30:00.000Z', device_id: 'CoraTab1xxxxxxxx', changes: { phone: { old: '1', new: '2' } } }));
    // Sent a second after it was made (online): one time only.
    server.events.push(auditRow({ created_date: '2026-03-10T16:00:01.000Z', client_time: '2026-03-10T16:00:00.000Z', changes: { phone: { old: '2', new: '3' } } }));
    await renderPage(<AuditPage />, { at: 'Audit', user: ADMIN });
    await screen.findByRole('list', { name: 'Events' });
    const [online, offline] = events();
    expect(offline).toHaveTextContent(`Edited on the tablet at ${formatAuditTime('2026-03-10T09:30:00.000Z')}, arrived ${formatAuditTime('2026-03-10T15:12:04.000Z')}`);
    expect(online).not.toHaveTextContent('Edited on the tablet');
  });

  it('the filters build the query: person, entity, record, action and a range of local days', async () => {
    const user = userEvent.setup();
    await renderPage(<AuditPage />, { at: 'Audit', user: ADMIN });
    await screen.findByText('No events match these filters');
    await user.type(screen.getByLabelText('Person (e-mail)'), 'Cora@Example.org');
    await waitFor(() => expect(lastQuery()).toEqual({ actor_email: { $in: ['cora@example.org', 'Cora@Example.org'] } }));
    await user.clear(screen.getByLabelText('Person (e-mail)'));
    await user.type(screen.getByLabelText('Person (e-mail)'), 'cora@example.org');
    await user.selectOptions(screen.getByLabelText('Entity'), 'Participant');
    await user.type(screen.getByLabelText('Record ID'), ' p1 ');
    await user.selectOptions(screen.getByLabelText('Action'), 'Changed');
    await user.type(screen.getByLabelText('From'), '2026-03-01');
    await user.type(screen.getByLabelText('To'), '2026-03-10');
    await waitFor(() =>
      expect(lastQuery()).toEqual({
        actor_email: 'cora@example.org',
        entity: 'Participant',
        record_id: 'p1',
        action: 'update',
        // Local midnight of the 1st up to (not including) local midnight after the 10th.
        created_date: { $gte: new Date(2026, 2, 1).toISOString(), $lt: new Date(2026, 2, 11).toISOString() },
      }),
    );
    // Typing is asked for once it settles, not at every key.
    expect(server.lists.length).toBeLessThan(12);
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastQuery()).toEqual({}));
  });

  it('opens with the filters of its address (a record’s History links here)', async () => {
    server.events.push(auditRow({ record_id: 'p9' }), auditRow({ record_id: 'p1' }));
    await renderPage(<AuditPage />, { at: 'Audit', user: ADMIN, search: { entity: 'Participant', record: 'p9' } });
    await screen.findByRole('list', { name: 'Events' });
    expect(events()).toHaveLength(1);
    expect(server.lists[0].q).toEqual({ entity: 'Participant', record_id: 'p9' });
    expect(screen.getByLabelText('Record ID')).toHaveValue('p9');
  });

  it('pages with the server’s cursor: 50 at first, then 50 more, until there are no more', async () => {
    for (let i = 0; i < 120; i++) server.events.push(auditRow({ created_date: new Date(Date.UTC(2026, 2, 1) + i * 60_000).toISOString() }));
    const user = userEvent.setup();
    await renderPage(<AuditPage />, { at: 'Audit', user: ADMIN });
    await screen.findByRole('list', { name: 'Events' });
    expect(events()).toHaveLength(50);
    expect(screen.getByText('50 events, newest first; older ones follow')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(events()).toHaveLength(100));
    // A later page sends only the cursor (it carries the query and sort).
    expect(server.lists[1]).toMatchObject({ q: null, sort: null, cursor: expect.any(String), limit: 50 });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(events()).toHaveLength(120));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByText('120 events, newest first')).toBeInTheDocument();
    const times = events().map((li) => li.querySelector('time')!.getAttribute('datetime')!);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('offline, it says so clearly and offers no export', async () => {
    server.offline = true;
    await renderPage(<AuditPage />, { at: 'Audit', user: ADMIN });
    expect(await screen.findByText('You are offline. The audit trail can be read when online.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('a coach never sees it and asks the server nothing; a refusal (403) reads the same', async () => {
    await renderPage(<AuditPage />, { at: 'Audit', user: COACH });
    expect(screen.getByText("You don't have permission to view this page")).toBeInTheDocument();
    expect(server.lists).toEqual([]);
    cleanup();
    server.status = 403;
    await renderPage(<AuditPage />, { at: 'Audit', user: ADMIN });
    expect(await screen.findByText("You don't have permission to view this page")).toBeInTheDocument();
  });

  it('exports the current filter as CSV (formulas neutralised) and records the export for the audit', async () => {
    server.events.push(
      auditRow({ created_date: '2026-03-10T10:00:00.000Z', reason: '=SUM(A1)', changes: { first_name: { old: 'Ana', new: '=HYPERLINK("x")' } } }),
      auditRow({ created_date: '2026-03-10T11:00:00.000Z', record_id: 'p2' }),
    );
    const blobs: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:audit';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const user = userEvent.setup();
    await renderPage(<AuditPage />, { at: 'Audit', user: ADMIN, search: { record: 'p1' } });
    await screen.findByRole('list', { name: 'Events' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toHaveLength(1));
    expect(names[0]).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    // The byte-order mark first (Excel reads UTF-8 names right only with it).
    const bytes = new Uint8Array(await blobs[0].arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split('\r\n');
    expect(lines[0]).toBe('Arrived (UTC),Edited on tablet (UTC),Seq,Person,Person ID,Device,Action,Entity,Record ID,Outcome,Reason,Changes,Address');
    expect(lines).toHaveLength(3); // header, the one event of record p1, the last line end
    expect(lines[1]).toContain('2026-03-10T10:00:00.000Z,,');
    expect(lines[1]).toContain(`,Changed,Participant,p1,Success,'=SUM(A1),"first_name: Ana → =HYPERLINK(""x"")",10.0.0.5`);
    expect(await readExportNotices(db)).toEqual([
      expect.objectContaining({ user_id: ADMIN.id, notice: expect.objectContaining({ kind: 'audit', row_count: 1, filters: { record: 'p1' } }) }),
    ]);
  });
});
