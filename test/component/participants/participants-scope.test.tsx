import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { db } from '../../../src/data/db';
import { TABLET_SCOPE_KEY, type TabletScope } from '../../../src/data/sync/scope';
import { ParticipantsPage } from '../../../src/screens/participants/participants-page';
import { clearDb, COACH, renderPage } from '../render-page';

beforeEach(clearDb);
afterEach(cleanup);

async function seed(scope: Partial<TabletScope> | null) {
  await db.participants.bulkPut([
    { id: 'p1', first_name: 'Maria', last_name: 'Lopez', custody_status: 'in-custody', enrollment_date: '2025-02-01' },
    { id: 'p2', first_name: 'James', last_name: 'Carter', custody_status: 'released', enrollment_date: '2025-03-01' },
  ]);
  if (scope) {
    const value: TabletScope = { userId: COACH.id, all: false, siteIds: ['s1', 's2', 's3'], defaultSiteIds: ['s1', 's2', 's3'], derivedAt: 0, ...scope };
    await db.meta.put({ key: TABLET_SCOPE_KEY, value });
  }
}

describe('Participants count badge says what it covers (issue #22.4)', { timeout: 30_000 }, () => {
  it('keeps the spec badge and puts "at your 3 sites" beside it', async () => {
    await seed({});
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    // The badge reads exactly as spec 2.5 says; the phrase is its own element next to it.
    const badge = await screen.findByText('2 participants');
    await waitFor(() => expect(screen.getByTestId('count-scope')).toHaveTextContent(/^at your 3 sites$/));
    expect(badge).toHaveTextContent(/^2 participants$/);
    expect(badge.parentElement).toContainElement(screen.getByTestId('count-scope'));
  });

  it('says "at 2 sites" when the coach chose other sites', async () => {
    await seed({ siteIds: ['s1', 's7'] });
    await renderPage(<ParticipantsPage />, { at: 'Participants' });
    await screen.findByText('2 participants');
    await waitFor(() => expect(screen.getByTestId('count-scope')).toHaveTextContent(/^at 2 sites$/));
  });

  it('adds nothing on a tablet holding every site, or before a scope is known', async () => {
    for (const scope of [{ all: true }, { userId: 'someone-else' }, null]) {
      await clearDb();
      await seed(scope);
      await renderPage(<ParticipantsPage />, { at: 'Participants' });
      await screen.findByText('2 participants');
      // Give the scope's own live query time to answer: absence must not be a race won.
      await act(() => new Promise((r) => setTimeout(r, 100)));
      expect(screen.queryByTestId('count-scope')).not.toBeInTheDocument();
      cleanup();
    }
  });
});
