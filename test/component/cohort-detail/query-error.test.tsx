import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { CohortDetailPage } from '../../../src/screens/cohort-detail/cohort-detail-page';
import { clearDb, renderPage } from '../render-page';
import { seedCohort } from './seed';

vi.setConfig({ testTimeout: 30_000 });

// Issue #27: a live query that throws (a row the tablet cannot read) takes down the page, not the
// app: the route's error state with Try again, which reads the record afresh. The device's read of
// the cohort fails (its table's get), so the real query and the page's real handling run.
const failing = { value: true };

beforeEach(async () => {
  failing.value = true;
  await clearDb();
  await seedCohort();
  const get = db.cohorts.get.bind(db.cohorts);
  vi.spyOn(db.cohorts, 'get').mockImplementation(((...args: Parameters<typeof get>) =>
    failing.value ? Promise.reject(new Error('The cohort could not be read')) : get(...args)) as typeof get);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('CohortDetailPage when its query throws (issue #27)', () => {
  it("shows the route's error state, and 'Try again' recovers", async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
    expect(await screen.findByRole('heading', { name: 'An unexpected error occurred' })).toBeInTheDocument();
    expect(screen.getByText('Error: The cohort could not be read')).toBeInTheDocument();
    failing.value = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: /FL-SQ-2025Q1/ })).toBeInTheDocument();
    expect(screen.queryByText('An unexpected error occurred')).not.toBeInTheDocument();
  });

  it("'Back to Dashboard' leaves the page", async () => {
    const user = userEvent.setup();
    await renderPage(<CohortDetailPage id="c1" />, { at: 'CohortDetail', id: 'c1' });
    await user.click(await screen.findByRole('link', { name: 'Back to Dashboard' }));
    expect(await screen.findByText('Now on Dashboard')).toBeInTheDocument();
  });
});
