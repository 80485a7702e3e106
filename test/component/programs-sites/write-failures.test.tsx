import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { ProgramsSitesPage } from '../../../src/screens/programs-sites/programs-sites-page';
import { quotaExceeded, refuseWrites } from '../../support/full-storage';
import { ADMIN, clearDb, renderPage } from '../render-page';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

// Writes that fail on the device: each must say so with the section 8 text. The program writes fail
// because storage is full (S12: its own words come under the toast); the site writes for a reason
// meant for nobody (only the toast; the error goes to the console).
let acceptWrites = () => {};

const STORAGE_FULL = 'This device is out of storage space, so the change was not saved. Free up space, then try again.';

beforeEach(async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await clearDb();
  await db.programs.put({ id: 'pr1', program_name: 'Financial Literacy', active: true });
  await db.sites.put({ id: 's1', site_name: 'Oak Glen', site_type: 'fire_camp', active: true });
  acceptWrites = refuseWrites(db, ({ entity }) => {
    if (entity === 'Program') return quotaExceeded();
    if (entity === 'Site') return new Error('IDBDatabase: the transaction was aborted');
    return undefined;
  });
});
afterEach(() => {
  acceptWrites();
  cleanup();
  vi.restoreAllMocks();
});

describe('ProgramsSitesPage write failures (spec 8)', () => {
  it('keeps the New Program form open with its input after a failed create', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Add Program' }));
    await user.type(screen.getByLabelText('Program Name *'), 'Credit Repair');
    await user.click(screen.getByRole('button', { name: 'Create Program' }));
    expect(await screen.findByText('Failed to create program. Please try again.')).toBeInTheDocument();
    expect(screen.getByText(STORAGE_FULL)).toBeInTheDocument();
    expect(screen.getByLabelText('Program Name *')).toHaveValue('Credit Repair');
    expect(screen.getByRole('button', { name: 'Create Program' })).toBeEnabled();
  });

  it('says a program may be in use when its delete fails', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(within(await screen.findByRole('article', { name: 'Financial Literacy' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete program. It may be in use by cohorts.')).toBeInTheDocument();
  });

  it("says 'Failed to update program' when an inline edit fails", async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(within(await screen.findByRole('article', { name: 'Financial Literacy' })).getByRole('button', { name: 'Edit' }));
    // A change to save (a save without one writes nothing, so nothing can fail).
    await user.type(screen.getByLabelText('Program Name *'), ' II');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update program')).toBeInTheDocument();
    expect(screen.getByLabelText('Program Name *')).toHaveValue('Financial Literacy II');
  });

  it('reports failed site create and delete', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Add Site' }));
    await user.type(screen.getByLabelText('Site Name *'), 'Folsom');
    await user.click(screen.getByRole('button', { name: 'Create Site' }));
    expect(await screen.findByText('Failed to create site. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText(/transaction was aborted/)).not.toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith('Failed to create site. Please try again.:', expect.any(Error));
    await user.click(within(screen.getByRole('article', { name: 'Oak Glen' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete site. It may be in use by cohorts.')).toBeInTheDocument();
  });
});
