import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { renderPage } from '../render-page';

afterEach(cleanup);

function Blank() {
  return <p>Nothing here</p>;
}

// test/component/setup.ts: each test starts as a newly opened tab, with no toast still showing.
// sonner keeps its toasts in module state and replays the ones not dismissed to a Toaster that
// mounts; the first test's toast outlives its page (cleanup unmounts the Toaster, so its timer
// never runs out), and without the setup's dismiss it comes back in the second test's page.
describe('a toast left by one test', () => {
  it('shows on its own page', async () => {
    await renderPage(<Blank />, { at: 'Dashboard' });
    toast.error('Failed to add participant');
    expect(await screen.findByText('Failed to add participant')).toBeInTheDocument();
  });

  it('is not on the next test’s page', async () => {
    await renderPage(<Blank />, { at: 'Dashboard' });
    expect(await screen.findByText('Nothing here')).toBeInTheDocument();
    expect(screen.queryByText('Failed to add participant')).not.toBeInTheDocument();
  });
});
