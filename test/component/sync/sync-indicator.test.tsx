import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { SyncIndicator } from '../../../src/pwa/sync-indicator';
import { NOW, op, renderAtSync, resetWorld, setStatus } from './render-sync';

afterEach(cleanup);

let world: Awaited<ReturnType<typeof resetWorld>>;
beforeEach(async () => {
  world = await resetWorld();
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  return () => vi.useRealTimers();
});

const indicator = () => screen.getByTestId('sync-indicator');

describe('SyncIndicator (issue #5.4)', () => {
  it('says Up to date and when it last synced, and links to the Sync page', async () => {
    await setStatus({ lastSyncedAt: NOW - 2 * 60_000 });
    await renderAtSync(<SyncIndicator />);
    // jsdom's name computation trims each part of the chip ('Sync status:Up to date.'); Chromium keeps the spaces.
    const link = await screen.findByRole('link', { name: /^Sync status:\s*Up to date\.\s*Synced 2 min ago\.\s*Open the Sync page$/ });
    expect(link).toHaveAttribute('href', '/sync');
    expect(indicator()).toHaveAttribute('data-sync-state', 'up-to-date');
  });

  it('counts pending changes', async () => {
    await setStatus({ lastSyncedAt: NOW - 60_000 });
    await db.outbox.bulkAdd([op({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '1' } }), op({ entity: 'Participant', record_id: 'p2', kind: 'update', data: { phone: '2' } })]);
    await renderAtSync(<SyncIndicator />);
    expect(await screen.findByText('2 pending')).toBeInTheDocument();
  });

  it('says Needs attention when the server refused a change, and Offline when the server is out of reach', async () => {
    await setStatus({});
    await db.outbox.add(op({ entity: 'Participant', record_id: 'p1', kind: 'update', data: { phone: '1' }, state: 'rejected', last_error: { status: 422, message: 'bad' } }));
    await renderAtSync(<SyncIndicator />);
    expect(await screen.findByText('Needs attention')).toBeInTheDocument();
    await db.outbox.add(op({ entity: 'Participant', record_id: 'p2', kind: 'update', data: { phone: '2' } }));
    await setStatus({ online: false });
    expect(await screen.findByText('Offline · 1 pending')).toBeInTheDocument();
    expect(indicator()).toHaveAttribute('data-sync-state', 'offline');
  });

  it('shows Syncing while the engine runs, with Sync now disabled; otherwise Sync now asks the engine', async () => {
    await setStatus({ syncing: true });
    await renderAtSync(<SyncIndicator />);
    expect(await screen.findByText('Syncing')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeDisabled();
    await setStatus({ syncing: false, online: false });
    await screen.findByText('Offline');
    // Offline is the last attempt's result: Sync now is how a coach tries again.
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(world.syncNowCalls()).toBe(1);
  });

  // Issue #9.6: one label, never two that contradict.
  it('during the first sync says Downloading data with the progress, never Up to date · Not synced yet', async () => {
    await setStatus({
      syncing: true,
      firstSyncComplete: false,
      firstSync: [
        { entity: 'Program', done: true, rows: 3, total: 3 },
        { entity: 'Participant', done: false, rows: 4000, total: 10000 },
      ],
    });
    await renderAtSync(<SyncIndicator />);
    expect(await screen.findByRole('link', { name: /Downloading data\.\s*Downloading participants… 4,000 of 10,000\./ })).toBeInTheDocument();
    expect(indicator()).toHaveAttribute('data-sync-state', 'first-sync');
    // The engine finished its pulls but no full cycle has been recorded yet.
    await setStatus({ firstSyncComplete: true, lastSyncedAt: null });
    expect(await screen.findByText('Up to date')).toBeInTheDocument();
    expect(indicator()).not.toHaveTextContent('Not synced yet');
  });

  it('offline with the first download cut off says Not all data is on this tablet yet: connect to finish', async () => {
    await setStatus({ online: false, firstSyncComplete: false, firstSync: [{ entity: 'Participant', done: false, rows: 10, total: null }] });
    await renderAtSync(<SyncIndicator />);
    expect(await screen.findByText('Not all data is on this tablet yet: connect to finish')).toBeInTheDocument();
    expect(indicator()).toHaveAttribute('data-sync-state', 'incomplete');
  });

  it('never says Syncing while offline, and claims nothing before the status is read', async () => {
    await setStatus({ online: false, syncing: true, lastSyncedAt: NOW - 60_000 });
    await renderAtSync(<SyncIndicator />);
    expect(indicator()).toHaveAttribute('data-sync-state', 'checking');
    expect(indicator()).not.toHaveTextContent(/Up to date|Syncing/);
    expect(await screen.findByText('Offline')).toBeInTheDocument();
    expect(indicator()).not.toHaveTextContent('Syncing');
  });
});
