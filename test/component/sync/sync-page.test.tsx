import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { SyncPage } from '../../../src/screens/sync/sync-page';
import { NOW, op, renderAtSync, resetWorld, setStatus } from './render-sync';

afterEach(cleanup);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

let world: Awaited<ReturnType<typeof resetWorld>>;
beforeEach(async () => {
  world = await resetWorld();
  // Only Date is faked ('Synced 3 min ago' is measured from it); timers stay real for Dexie.
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  await setStatus({ lastSyncedAt: NOW - 3 * 60_000 });
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Ana', last_name: 'Ruiz', phone: '555-0101' },
    { id: 'local-p2', first_name: 'Ben', last_name: 'Okafor' },
  ]);
  await db.cohorts.put({ id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FIN-SQ-2026Q4' });
  await db.enrollments.put({ id: 'local-e1', participant_id: 'local-p2', cohort_id: 'c1', enrollment_status: 'active' });
});

describe('Sync page: pending changes (issue #5.4)', () => {
  it('lists each change with its entity, record, what changed and when', async () => {
    await db.outbox.bulkAdd([
      op({ entity: 'Participant', record_id: 'local-p2', kind: 'create', data: { first_name: 'Ben', last_name: 'Okafor', client_ref: 'r1' }, created_at: NOW - 10 * 60_000 }),
      op({ entity: 'Enrollment', record_id: 'local-e1', kind: 'create', data: { participant_id: 'local-p2', cohort_id: 'c1', enrollment_status: 'active' } }),
      op({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '555-0199' }, state: 'inflight' }),
    ]);
    await renderAtSync(<SyncPage />);
    await screen.findByText('Ben Okafor in FIN-SQ-2026Q4');
    const list = screen.getByRole('list', { name: 'Changes waiting to sync' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Participant');
    expect(rows[0]).toHaveTextContent('Ben Okafor');
    expect(rows[0]).toHaveTextContent('Added participant');
    expect(rows[0]).toHaveTextContent('Nov 22, 11:50 AM');
    expect(rows[1]).toHaveTextContent('Ben Okafor in FIN-SQ-2026Q4');
    expect(rows[1]).toHaveTextContent('Enrolled in a cohort');
    expect(rows[2]).toHaveTextContent('Ana Ruiz');
    expect(rows[2]).toHaveTextContent('Changed phone');
    expect(rows[2]).toHaveTextContent('Sending…');
    expect(screen.getByRole('heading', { name: 'Waiting to sync (3)' })).toBeInTheDocument();
    expect(screen.getByTestId('sync-state')).toHaveTextContent('3 pending');
    expect(screen.getByText('Synced 3 min ago')).toBeInTheDocument();
  });

  it('says so when nothing is waiting, and Sync now asks the engine', async () => {
    await renderAtSync(<SyncPage />);
    expect(await screen.findByText(/Nothing is waiting/)).toBeInTheDocument();
    // The header's status is its own live query (counts, then the status): it may answer a moment later.
    await waitFor(() => expect(screen.getByTestId('sync-state')).toHaveTextContent('Up to date'));
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(world.syncNowCalls()).toBe(1);
  });

  it('explains offline and an expired sign-in', async () => {
    await setStatus({ online: false, paused: 'auth' });
    await renderAtSync(<SyncPage />);
    expect(await screen.findByText(/Passage cannot reach the server/)).toBeInTheDocument();
    expect(screen.getByText(/Your sign-in has expired/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toMatch(/^\/login\?from_url=/);
  });
});

describe('Sync page: rejected changes (S8)', () => {
  const rejectedUpdate = () =>
    op({
      entity: 'Participant',
      record_id: 'p1',
      kind: 'update',
      data: { phone: 'not-a-phone' },
      base_values: { phone: '555-0101' },
      state: 'rejected',
      attempts: 1,
      last_error: { status: 422, message: 'phone must be a phone number' },
    });

  it("shows the server's message; other changes are listed as still going", async () => {
    await db.participants.update('p1', { phone: 'not-a-phone' });
    await db.outbox.bulkAdd([rejectedUpdate(), op({ entity: 'Participant', record_id: 'local-p2', kind: 'update', data: { phone: '1' } })]);
    await renderAtSync(<SyncPage />);
    const card = await screen.findByRole('listitem', { name: 'Rejected: Participant Ana Ruiz' });
    expect(card).toHaveTextContent('The server said: phone must be a phone number (422)');
    expect(screen.getByTestId('sync-state')).toHaveTextContent('Needs attention');
    expect(screen.getByRole('heading', { name: 'Waiting to sync (1)' })).toBeInTheDocument();
  });

  it('Retry sends it again', async () => {
    const seq = await db.outbox.add(rejectedUpdate());
    await renderAtSync(<SyncPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(async () => expect((await db.outbox.get(seq))?.state).toBe('pending'));
    expect(world.syncNowCalls()).toBeGreaterThan(0);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: /Rejected/ })).toBeNull());
  });

  it('Edit corrects the value and sends it again', async () => {
    const seq = await db.outbox.add(rejectedUpdate());
    await renderAtSync(<SyncPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const phone = screen.getByLabelText('phone');
    await userEvent.clear(phone);
    await userEvent.type(phone, '555-0123');
    await userEvent.click(screen.getByRole('button', { name: 'Save and retry' }));
    await waitFor(async () => expect(await db.outbox.get(seq)).toMatchObject({ state: 'pending', data: { phone: '555-0123' } }));
    expect((await db.participants.get('p1'))?.phone).toBe('555-0123');
  });

  it('Discard asks first; cancelling keeps it, confirming reverts the record', async () => {
    await db.participants.update('p1', { phone: 'not-a-phone' });
    const seq = await db.outbox.add(rejectedUpdate());
    await renderAtSync(<SyncPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard this change?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await db.outbox.get(seq)).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    await waitFor(async () => expect(await db.outbox.get(seq)).toBeUndefined());
    expect((await db.participants.get('p1'))?.phone).toBe('555-0101');
  });
});

describe('Sync page: conflicts (S4)', () => {
  beforeEach(async () => {
    await db.participants.update('p1', { phone: '555-0111' });
    await db.conflicts.add({
      entity: 'Participant',
      record_id: 'p1',
      field: 'phone',
      local_value: '555-0111',
      server_value: '555-0222',
      server_updated_date: '2026-11-22T11:30:00.000Z',
      detected_at: NOW - 60_000,
      status: 'open',
      kind: 'field',
    });
  });

  it("shows both values; Keep mine closes it and leaves the record alone", async () => {
    await renderAtSync(<SyncPage />);
    const card = await screen.findByRole('listitem', { name: 'Conflict: Participant Ana Ruiz' });
    expect(within(card).getByText('555-0111')).toBeInTheDocument();
    expect(within(card).getByText('555-0222')).toBeInTheDocument();
    expect(screen.getByTestId('sync-state')).toHaveTextContent('Needs attention');
    await userEvent.click(within(card).getByRole('button', { name: 'Keep mine' }));
    await waitFor(async () => expect((await db.conflicts.toArray())[0].status).toBe('kept_local'));
    expect((await db.participants.get('p1'))?.phone).toBe('555-0111');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: /Conflict/ })).toBeNull());
  });

  it("Use server's puts the server's value back and queues it", async () => {
    await renderAtSync(<SyncPage />);
    const card = await screen.findByRole('listitem', { name: 'Conflict: Participant Ana Ruiz' });
    await userEvent.click(within(card).getByRole('button', { name: "Use server's" }));
    await waitFor(async () => expect((await db.conflicts.toArray())[0].status).toBe('took_server'));
    expect((await db.participants.get('p1'))?.phone).toBe('555-0222');
    expect(await db.outbox.toArray()).toEqual([expect.objectContaining({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '555-0222' } })]);
  });
});

describe('Sync page: storage (S12)', () => {
  it('shows usage and persistence, and asks for persistence on request', async () => {
    let persisted = false;
    const persist = vi.fn(async () => (persisted = true));
    vi.stubGlobal('navigator', { ...navigator, onLine: true, storage: { estimate: async () => ({ usage: 3 * 1024 * 1024, quota: 2 * 1024 ** 3 }), persisted: async () => persisted, persist } });
    await renderAtSync(<SyncPage />);
    expect(await screen.findByText('3 MB of 2 GB')).toBeInTheDocument();
    // Issue #12.11: a warning chip at the top of the page says what it means, with the button.
    const warning = screen.getByRole('status', { name: 'Storage warning' });
    expect(within(warning).getByText('Not persistent')).toBeInTheDocument();
    expect(warning).toHaveTextContent("The browser may clear Passage's data when the device runs low on space, including changes not yet synced.");
    expect(screen.getByRole('heading', { name: 'Sync' }).compareDocumentPosition(warning) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(warning.compareDocumentPosition(screen.getByText('3 MB of 2 GB')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(within(warning).getByRole('button', { name: 'Keep data on this device' }));
    expect(await screen.findByText('Persistent')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Storage warning' })).not.toBeInTheDocument();
    expect(persist).toHaveBeenCalledTimes(1);
  });
});

describe('Sync page: the first download (issue #9.5)', () => {
  it('lists each entity with what has arrived and of how many, until the first sync is complete', async () => {
    await setStatus({
      lastSyncedAt: null,
      syncing: true,
      firstSyncComplete: false,
      firstSync: [
        { entity: 'Program', done: true, rows: 50, total: 50 },
        { entity: 'Participant', done: false, rows: 4000, total: 10000 },
        { entity: 'Enrollment', done: false, rows: 0, total: null },
      ],
    });
    await renderAtSync(<SyncPage />);
    const section = await screen.findByRole('region', { name: 'First download of this tablet' });
    expect(within(section).getByText('programs').closest('li')).toHaveTextContent('programs50 · done');
    expect(within(section).getByText('participants').closest('li')).toHaveTextContent('participants4,000 of 10,000');
    expect(within(section).getByText('enrollments').closest('li')).toHaveTextContent('enrollments0 so far');
    expect(screen.getByTestId('sync-state')).toHaveTextContent('Downloading data');

    await setStatus({ lastSyncedAt: NOW, firstSyncComplete: true });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'First download of this tablet' })).not.toBeInTheDocument());
  });
});
