import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { forgetAcademyCounts } from '../../../src/data/online/academy-counts';
import type { PlatformClientLike } from '../../../src/data/platform-like';
import { TABLET_SCOPE_KEY, type TabletScope } from '../../../src/data/sync/scope';
import { INITIAL_STATUS } from '../../../src/data/sync/status-store';
import { SYNC_STATUS_KEY } from '../../../src/data/sync/types';
import { DashboardPage } from '../../../src/screens/dashboard/dashboard-page';
import { clearDb, COACH, pageData, renderPage } from '../render-page';

beforeEach(clearDb);
beforeEach(forgetAcademyCounts);
afterEach(cleanup);

async function seed(scope: Partial<TabletScope> | null) {
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Maria', last_name: 'Lopez', custody_status: 'in-custody' },
    { id: 'p2', first_name: 'Ana', last_name: 'Ruiz', custody_status: 'released' },
  ]);
  await db.cohorts.bulkPut([{ id: 'c1', program_id: 'pr1', site_id: 's1', cohort_code: 'FL-SQ-2025Q1', status: 'active' }]);
  await db.programs.bulkPut([{ id: 'pr1', program_name: 'Financial Literacy', active: true }]);
  await db.enrollments.bulkPut([{ id: 'e1', participant_id: 'p1', cohort_id: 'c1', enrollment_status: 'active' }]);
  if (scope) {
    const value: TabletScope = { userId: COACH.id, all: false, siteIds: ['s1', 's2', 's3'], defaultSiteIds: ['s1', 's2', 's3'], derivedAt: 0, ...scope };
    await db.meta.put({ key: TABLET_SCOPE_KEY, value });
  }
}

/** A platform client that knows the academy's participant count. */
function academyOf(participants: number): PlatformClientLike {
  return {
    entities: () => ({ count: async () => participants }),
    auth: { me: async () => ({ id: COACH.id }), updateMe: async () => ({ id: COACH.id }) },
  } as unknown as PlatformClientLike;
}

const card = (label: string) => screen.getByText(label).closest('a')!;

describe('Dashboard counts say what they cover (issue #22.4)', { timeout: 30_000 }, () => {
  it('on a tablet holding the coach\'s sites, the scoped cards add "at your 3 sites" under the spec subtitles', async () => {
    await seed({});
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    await screen.findByText('Total Participants');
    await waitFor(() => expect(within(card('Total Participants')).getByTestId('stat-scope')).toHaveTextContent('at your 3 sites'));
    // The spec's labels, figures and subtitles stay as they are.
    expect(within(card('Total Participants')).getByText('2')).toBeInTheDocument();
    expect(within(card('Total Participants')).getByText('1 in custody • 1 released')).toBeInTheDocument();
    expect(within(card('Active Cohorts')).getByText('1 total cohorts')).toBeInTheDocument();
    expect(within(card('Active Cohorts')).getByTestId('stat-scope')).toHaveTextContent(/^at your 3 sites$/);
    expect(within(card('Active Enrollments')).getByText('0 graduated')).toBeInTheDocument();
    expect(within(card('Active Enrollments')).getByTestId('stat-scope')).toHaveTextContent(/^at your 3 sites$/);
    // Programs are whole on every tablet.
    expect(within(card('Programs')).getByText('Active programs')).toBeInTheDocument();
    expect(within(card('Programs')).queryByTestId('stat-scope')).not.toBeInTheDocument();
  });

  it('online, the academy\'s participants stand beside the tablet\'s', async () => {
    await seed({ siteIds: ['s1', 's2', 's3', 's9'] });
    pageData().client = academyOf(10_000);
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    await screen.findByText('Total Participants');
    await waitFor(() => expect(within(card('Total Participants')).getByTestId('stat-scope')).toHaveTextContent('at 4 sites · 10,000 in the academy'));
    expect(within(card('Active Cohorts')).getByTestId('stat-scope')).toHaveTextContent(/^at 4 sites$/);
  });

  it('offline, only what the tablet counts', async () => {
    await seed({});
    await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...INITIAL_STATUS, online: false, firstSyncComplete: true } });
    pageData().client = academyOf(10_000);
    await renderPage(<DashboardPage />, { at: 'Dashboard' });
    await screen.findByText('Total Participants');
    await waitFor(() => expect(within(card('Total Participants')).getByTestId('stat-scope')).toHaveTextContent(/^at your 3 sites$/));
  });

  it('a tablet holding every site (or no scope yet) adds nothing: its figures are the academy\'s', async () => {
    for (const scope of [{ all: true }, null]) {
      await clearDb();
      await seed(scope);
      pageData().client = academyOf(10_000);
      await renderPage(<DashboardPage />, { at: 'Dashboard' });
      await screen.findByText('Total Participants');
      await screen.findByText('1 in custody • 1 released');
      // Give the scope's own live query time to answer: absence must not be a race won.
      await act(() => new Promise((r) => setTimeout(r, 100)));
      expect(screen.queryByTestId('stat-scope')).not.toBeInTheDocument();
      cleanup();
    }
  });
});
