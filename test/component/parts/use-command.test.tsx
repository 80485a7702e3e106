import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Toaster } from 'sonner';
import { createDataContext, type DataContext } from '../../../src/data/context';
import { db } from '../../../src/data/db';
import { StorageFullError } from '../../../src/data/errors';
import { DataProvider } from '../../../src/data/provider';
import { errorLine } from '../../../src/screens/parts/present-error';
import { useCommand } from '../../../src/screens/parts/use-command';

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

  it('onError shows the failure inline instead of a toast', async () => {
    const user = userEvent.setup();
    renderWith(<Save inline failure="Failed to save the inline note" command={() => Promise.reject(new StorageFullError())} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This device is out of storage space');
    expect(screen.queryByText('Failed to save the inline note')).not.toBeInTheDocument();
  });
});
