import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { AppErrorBoundary } from '../../../src/app/app-error-boundary';
import { renderShell } from './render-shell';
import { USERS, type FakeServer } from './fake-platform';
import { asScreen } from './mock-screens';

// Issue #27: a page that throws while rendering is replaced by the route's error state inside the
// shell (sidebar and header stay), with 'Try again' and the way to the Dashboard.
const broken = { cohorts: true };

/** The shell with a Cohorts page that throws while `broken.cohorts` holds. */
const renderWithBrokenCohorts = (path: string, server: FakeServer) =>
  renderShell(path, server, {}, {
    Cohorts: asScreen(() => {
      if (broken.cohorts) throw new Error('Cohort index unreadable');
      return <h1>Cohorts page</h1>;
    }),
  });

beforeEach(() => {
  broken.cohorts = true;
  // React reports every error a boundary caught, and the router warns about the route; expected here.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a page that throws (issue #27)', { timeout: 20_000 }, () => {
  it('shows the error state in the shell, the detail folded away; the sidebar still leads elsewhere', async () => {
    const user = userEvent.setup();
    renderWithBrokenCohorts('/cohorts', { me: USERS.coach });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'An unexpected error occurred' })).toBeInTheDocument();
    expect(within(alert).getByText('This page could not be shown. Everything saved on this tablet is safe.')).toBeInTheDocument();
    // The detail is there for whoever helps, inside a closed <details>.
    expect(within(alert).getByText('Error: Cohort index unreadable').closest('details')).not.toHaveAttribute('open');
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toBeInTheDocument();
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Participants' }));
    expect(await screen.findByRole('heading', { name: 'Participants page' })).toBeInTheDocument();
    expect(screen.queryByText('An unexpected error occurred')).not.toBeInTheDocument();
  });

  it("'Try again' renders the page afresh once the cause is gone", async () => {
    const user = userEvent.setup();
    renderWithBrokenCohorts('/cohorts', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'An unexpected error occurred' });
    broken.cohorts = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Cohorts page' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'An unexpected error occurred' })).not.toBeInTheDocument();
  });

  it("'Back to Dashboard' leaves the broken page", async () => {
    const user = userEvent.setup();
    const { router } = renderWithBrokenCohorts('/cohorts', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'An unexpected error occurred' });
    await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});

describe('AppErrorBoundary (issue #27)', () => {
  function Bomb({ armed }: { armed: boolean }) {
    if (armed) throw new Error('Shell state lost');
    return <p>Shell is fine</p>;
  }

  function Harness() {
    const [armed, setArmed] = useState(true);
    return (
      <>
        <button type="button" onClick={() => setArmed(false)}>
          Defuse
        </button>
        <AppErrorBoundary>
          <Bomb armed={armed} />
        </AppErrorBoundary>
      </>
    );
  }

  it('a render error outside any route shows the way back; Try again renders the app again', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByRole('heading', { name: 'An unexpected error occurred' })).toBeInTheDocument();
    expect(screen.getByText('Error: Shell state lost')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    await user.click(screen.getByRole('button', { name: 'Defuse' }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Shell is fine')).toBeInTheDocument();
  });
});
