import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { ProgramsSitesPage } from '../../../src/screens/programs-sites/programs-sites-page';
import { ADMIN, clearDb, renderPage } from '../render-page';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

// Writes that fail on the device (e.g. storage full): each must say so with the section 8 text.
// vi.mock is hoisted above the imports, so the failing function is hoisted with it.
const { fail } = vi.hoisted(() => ({ fail: () => Promise.reject(new Error('QuotaExceededError')) }));
vi.mock('../../../src/data/commands/programs', () => ({ createProgram: vi.fn(fail), updateProgram: vi.fn(fail), deleteProgram: vi.fn(fail) }));
vi.mock('../../../src/data/commands/sites', () => ({ createSite: vi.fn(fail), updateSite: vi.fn(fail), deleteSite: vi.fn(fail) }));

beforeEach(async () => {
  await clearDb();
  await db.programs.put({ id: 'pr1', program_name: 'Financial Literacy', active: true });
  await db.sites.put({ id: 's1', site_name: 'Oak Glen', site_type: 'fire_camp', active: true });
});
afterEach(cleanup);

describe('ProgramsSitesPage write failures (spec 8)', () => {
  it('keeps the New Program form open with its input after a failed create', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Add Program' }));
    await user.type(screen.getByLabelText('Program Name *'), 'Credit Repair');
    await user.click(screen.getByRole('button', { name: 'Create Program' }));
    expect(await screen.findByText('Failed to create program. Please try again.')).toBeInTheDocument();
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
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update program')).toBeInTheDocument();
    expect(screen.getByLabelText('Program Name *')).toBeInTheDocument();
  });

  it('reports failed site create and delete', async () => {
    const user = userEvent.setup();
    await renderPage(<ProgramsSitesPage />, { at: 'ProgramsSites', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Add Site' }));
    await user.type(screen.getByLabelText('Site Name *'), 'Folsom');
    await user.click(screen.getByRole('button', { name: 'Create Site' }));
    expect(await screen.findByText('Failed to create site. Please try again.')).toBeInTheDocument();
    await user.click(within(screen.getByRole('article', { name: 'Oak Glen' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete site. It may be in use by cohorts.')).toBeInTheDocument();
  });
});
