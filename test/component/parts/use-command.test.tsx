import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Toaster } from 'sonner';
import { createDataContext, type DataContext } from '../../../src/data/context';
import { db } from '../../../src/data/db';
import { StorageFullError } from '../../../src/data/errors';
import { DataProvider } from '../../../src/data/provider';
import { errorLine } from '../../../src/screens/parts/present-error';
import { SAVED_HERE_HINT, useCommand } from '../../../src/screens/parts/use-command';
import { INITIAL_STATUS } from '../../../src/data/sync/status-store';
import { SYNC_STATUS_KEY } from '../../../src/data/sync/types';

// Issue #27: the one way a screen writes. The command gets the device's data context first, the
// button is off while it runs, and the outcome is one toast (or one inline line).
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// Each test has its own failure text: sonner's toasts outlive a test's render.
function Save({ command, failure = 'Failed to save the note', inline = false }: { command: (data: DataContext, name: string) => Promise<string>; failure?: string; inline?: boolean }) {
  const [line, setLine] = useState<string | null>(null);
  const save = useCommand(command, {
    success: (saved) => `Saved ${saved}`,
    failure,
    onError: inline ? (presented) => setLine(errorLine(presented)) : undefined,
  });
  return (
    <>
      <button type="button" disabled={save.pending} onClick={() => void save.run('Ana')}>
        {save.pending ? 'Saving...' : 'Save'}
      </button>
      {line && <p role="alert">{line}</p>}
    </>
  );
}

function renderWith(ui: React.ReactNode) {
  const data = createDataContext({ db, userId: 'user-1' });
  render(
    <DataProvider value={data}>
      {ui}
      <Toaster />
    </DataProvider>,
  );
  return data;
}

describe('useCommand', () => {
  it('passes the data context, is pending while it runs (a second tap is ignored), then toasts success', async () => {
    const user = userEvent.setup();
    let finish!: () => void;
    const command = vi.fn((_data: DataContext, name: string) => new Promise<string>((resolve) => (finish = () => resolve(name))));
    const data = renderWith(<Save command={command} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const busy = screen.getByRole('button', { name: 'Saving...' });
    expect(busy).toBeDisabled();
    await user.click(busy);
    expect(command).toHaveBeenCalledTimes(1);
    expect(command).toHaveBeenCalledWith(data, 'Ana');
    finish();
    expect(await screen.findByText('Saved Ana')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('serial: a run asked for while one is under way waits for it, then runs; none is dropped', async () => {
    const user = userEvent.setup();
    const finishes: Array<() => void> = [];
    const started: string[] = [];
    const command = (_data: DataContext, name: string) =>
      new Promise<string>((resolve) => {
        started.push(name);
        finishes.push(() => resolve(name));
      });
    function Taps() {
      const [n, setN] = useState(0);
      const tap = useCommand(command, { success: (saved) => `Saved ${saved}`, failure: 'Failed to save the tap', serial: true });
      return (
        <button type="button" onClick={() => { setN(n + 1); void tap.run(`tap ${n + 1}`); }}>
          {tap.pending ? `Tapped ${n}, saving` : `Tapped ${n}`}
        </button>
      );
    }
    renderWith(<Taps />);
    await user.click(screen.getByRole('button', { name: 'Tapped 0' }));
    await user.click(screen.getByRole('button', { name: 'Tapped 1, saving' }));
    await user.click(screen.getByRole('button', { name: 'Tapped 2, saving' }));
    // The second and third wait for the first: one write at a time, in the order tapped.
    expect(started).toEqual(['tap 1']);
    finishes[0]();
    await waitFor(() => expect(started).toEqual(['tap 1', 'tap 2']));
    finishes[1]();
    await waitFor(() => expect(started).toEqual(['tap 1', 'tap 2', 'tap 3']));
    expect(screen.getByRole('button', { name: 'Tapped 3, saving' })).toBeInTheDocument();
    finishes[2]();
    expect(await screen.findByRole('button', { name: 'Tapped 3' })).toBeInTheDocument();
    expect(await screen.findByText('Saved tap 3')).toBeInTheDocument();
  });

  it('serial: the same arguments again while they wait or run are a double tap, ignored', async () => {
    let finish!: () => void;
    const command = vi.fn((_data: DataContext, name: string) => new Promise<string>((resolve) => (finish = () => resolve(name))));
    const runs: Array<Promise<boolean>> = [];
    function Twice() {
      const save = useCommand(command, { failure: 'Failed to save twice', serial: true });
      return (
        <button type="button" onClick={() => { runs.push(save.run('Ana'), save.run('Ana')); }}>
          {save.pending ? 'Saving...' : 'Save'}
        </button>
      );
    }
    renderWith(<Twice />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(command).toHaveBeenCalledTimes(1);
    finish();
    expect(await Promise.all(runs)).toEqual([true, false]);
    expect(await screen.findByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(command).toHaveBeenCalledTimes(1);
  });

  it("a failure with a reason for people: the failure toast with that reason (StorageFullError's own words)", async () => {
    const user = userEvent.setup();
    renderWith(<Save command={() => Promise.reject(new StorageFullError())} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save the note')).toBeInTheDocument();
    expect(screen.getByText('This device is out of storage space, so the change was not saved. Free up space, then try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('any other failure: the failure toast alone, the error in the console', async () => {
    const user = userEvent.setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWith(<Save failure="Failed to save the other note" command={() => Promise.reject(new Error('constraint failed'))} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save the other note')).toBeInTheDocument();
    expect(screen.queryByText('constraint failed')).not.toBeInTheDocument();
    expect(logged).toHaveBeenCalledTimes(1);
  });

  describe('offline (issue #23.9)', () => {
    afterEach(async () => {
      await db.meta.delete(SYNC_STATUS_KEY);
      await db.outbox.clear();
    });
    const queueOne = () =>
      db.outbox.add({ entity: 'Participant', record_id: 'tmp-1', kind: 'create', data: { first_name: 'Ana' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id: 'user-1', created_at: 1 });
    const setOnline = (online: boolean) => db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, online } });

    it('a write that is only on this tablet: the success toast as written, and the quiet hint under it', async () => {
      const user = userEvent.setup();
      await setOnline(false);
      renderWith(
        <Save
          command={async (_data, name) => {
            await queueOne();
            return `${name} offline`;
          }}
        />,
      );
      await user.click(screen.getByRole('button', { name: 'Save' }));
      const title = await screen.findByText('Saved Ana offline');
      expect(title.textContent).toBe('Saved Ana offline');
      // The hint joins the same toast a moment later (the queue is read after the toast shows).
      await waitFor(() => expect(screen.getByText('Saved Ana offline').closest('[data-sonner-toast]')!.querySelector('[data-description]')).toHaveTextContent(SAVED_HERE_HINT));
      expect(SAVED_HERE_HINT).toBe('Saved on this tablet, will send when online');
    });

    it('online, or offline with nothing waiting: the success toast alone', async () => {
      const user = userEvent.setup();
      await setOnline(true);
      await queueOne();
      renderWith(<Save command={async (_data, name) => `${name} online`} />);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      const online = await screen.findByText('Saved Ana online');
      expect(online.closest('[data-sonner-toast]')!.querySelector('[data-description]')).toBeNull();
      cleanup();

      await setOnline(false);
      await db.outbox.clear();
      renderWith(<Save command={async (_data, name) => `${name} with nothing queued`} />);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      const idle = await screen.findByText('Saved Ana with nothing queued');
      expect(idle.closest('[data-sonner-toast]')!.querySelector('[data-description]')).toBeNull();
    });
  });

  it('onError shows the failure inline instead of a toast', async () => {
    const user = userEvent.setup();
    renderWith(<Save inline failure="Failed to save the inline note" command={() => Promise.reject(new StorageFullError())} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This device is out of storage space');
    expect(screen.queryByText('Failed to save the inline note')).not.toBeInTheDocument();
  });
});
