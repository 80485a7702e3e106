import { afterEach, describe, expect, it, vi } from 'vitest';
import { Component, type ReactNode } from 'react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { makeDevice } from '../../support/device';
import { withData } from '../../support/with-data';
import { useSyncStatus } from '../../../src/data/queries/sync-status';
import { useFirstSync } from '../../../src/data/queries/first-sync';
import { INITIAL_STATUS } from '../../../src/data/sync/status-store';
import { SYNC_STATUS_KEY } from '../../../src/data/sync/types';
import type { PassageDB } from '../../../src/data/db';

/** Counts the transactions that read the outbox (one per reading of the sync status), from now on. */
function countStatusReads(db: PassageDB): () => number {
  const spy = vi.spyOn(db, 'transaction');
  return () => spy.mock.calls.filter((args) => args.some((a) => a === db.outbox)).length;
}

function Chip({ name }: { name: string }) {
  const status = useSyncStatus();
  return <p data-testid={name}>{status.loaded ? `${name}: ${status.pending} pending, ${status.online ? 'online' : 'offline'}` : `${name}: loading`}</p>;
}

function Page() {
  const readiness = useFirstSync(['Participant']);
  return <p data-testid="page">page: {readiness.state}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children;
  }
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the sync status every component shows (issue #27.5)', () => {
  it('is one reading however many components show it: a status write re-reads it once, and all of them show it', async () => {
    const { data, db } = makeDevice();
    await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, firstSyncComplete: true } });
    render(
      <>
        <Chip name="header" />
        <Chip name="dashboard" />
        <Chip name="sync page" />
        <Page />
      </>,
      withData(data),
    );
    await screen.findByText('header: 0 pending, online');
    expect(screen.getByTestId('page')).toHaveTextContent('page: ready');

    const reads = countStatusReads(db);
    await act(() => db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, firstSyncComplete: true, online: false } }));
    for (const name of ['header', 'dashboard', 'sync page']) await screen.findByText(`${name}: 0 pending, offline`);
    expect(reads()).toBe(1);
  });

  it('starts from "loading" again once nothing shows it, never from an old reading', async () => {
    const { data, db } = makeDevice();
    await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, online: true } });
    const first = render(<Chip name="header" />, withData(data));
    await screen.findByText('header: 0 pending, online');
    first.unmount();

    await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, online: false } });
    render(<Chip name="header" />, withData(data));
    expect(screen.getByTestId('header')).toHaveTextContent('header: loading');
    await waitFor(() => expect(screen.getByTestId('header')).toHaveTextContent('header: 0 pending, offline'));
  });

  it('is a reading per device: two tablets in one test each show their own', async () => {
    const a = makeDevice({ name: 'tablet-a' });
    const b = makeDevice({ name: 'tablet-b' });
    await a.db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, online: true } });
    await b.db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, online: false } });
    render(<Chip name="a" />, withData(a.data));
    render(<Chip name="b" />, withData(b.data));
    await screen.findByText('a: 0 pending, online');
    await screen.findByText('b: 0 pending, offline');
  });

  it('a reading that fails goes to the error boundary, as a live query of its own did', async () => {
    const { data, db } = makeDevice();
    vi.spyOn(db.conflicts, 'where').mockImplementation(() => {
      throw new Error('The conflicts could not be read');
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the caught error
    render(
      <Boundary>
        <Chip name="header" />
      </Boundary>,
      withData(data),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The conflicts could not be read');
  });
});
