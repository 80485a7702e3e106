import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { db } from '../../../src/data/db';
import { fillStorage } from '../../support/full-storage';
import { ADMIN, clearDb, renderPage } from '../render-page';
import { seedCohort } from './seed';

// Live queries answer through IndexedDB; on a loaded 2-core CI box the first answer can take
// over a second, so wait up to 5 s before calling a screen wrong; a form filled key by key may
// take over the default 5 s per test there.
vi.setConfig({ testTimeout: 30_000 });

// A write that fails because the device's storage is full (S12): the page must say so, in the
// data layer's words under the spec's failure toast, and stay in edit mode.
let freeStorage = () => {};
beforeEach(async () => {
  await clearDb();
  await seedCohort();
  freeStorage = fillStorage(db);
});
afterEach(() => {
  freeStorage();
  cleanup();
});

describe('CohortDetailPage edit failure (spec 2.10)', () => {
  it("toasts 'Failed to update cohort. Please try again.' and keeps the form open", async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1', user: ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Edit Cohort' }));
    await user.clear(screen.getByLabelText('Capacity'));
    await user.type(screen.getByLabelText('Capacity'), '30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update cohort. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('This device is out of storage space, so the change was not saved. Free up space, then try again.')).toBeInTheDocument();
    expect(screen.getByLabelText('Capacity')).toHaveValue('30');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });
});
