import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { SITE_CHOICE_KEY, TABLET_SCOPE_KEY, type SiteChoice, type TabletScope } from '../../../src/data/sync/scope';
import { SitesOnTabletPanel } from '../../../src/screens/sync/sites-panel';
import { SyncPage } from '../../../src/screens/sync/sync-page';
import type { User } from '../../../shared/entities';
import { COACH, NOW, renderAtSync, resetWorld, setStatus } from './render-sync';

afterEach(cleanup);

const ADMIN: User = { id: 'user-admin', email: 'admin@example.org', full_name: 'Avery Admin', role: 'admin', approved: true };

let world: Awaited<ReturnType<typeof resetWorld>>;
beforeEach(async () => {
  world = await resetWorld();
  await setStatus({});
  await db.sites.bulkPut([
    { id: 's1', site_name: 'Albany Correctional', city: 'Albany' },
    { id: 's2', site_name: 'Buffalo Reentry Center', city: 'Buffalo' },
    { id: 's3', site_name: 'Cortland Facility' },
    { id: 's4', site_name: 'Dutchess House' },
  ]);
});

function scope(patch: Partial<TabletScope> = {}): TabletScope {
  return { userId: COACH.id, all: false, siteIds: ['s1', 's2'], defaultSiteIds: ['s1', 's2'], derivedAt: NOW, ...patch };
}

const storedChoice = async () => (await db.meta.get(SITE_CHOICE_KEY))?.value as SiteChoice | undefined;
const box = (name: string) => screen.getByRole('checkbox', { name });
const list = () => within(screen.getByRole('group', { name: 'Sites on this tablet' })).getByRole('list', { name: 'Sites' });

describe('Sites on this tablet (issue #22.1)', () => {
  it('is on the Sync page: the coach\'s cohort sites ticked and marked, the count, and what the others mean', async () => {
    await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope() });
    await renderAtSync(<SyncPage />);
    expect(await screen.findByRole('heading', { name: 'Sites on this tablet' })).toBeInTheDocument();
    expect(await screen.findByText('2 of 4 sites on this tablet')).toBeInTheDocument();
    expect(within(list()).getAllByRole('listitem')).toHaveLength(4);
    expect(box('Albany Correctional')).toBeChecked();
    expect(box('Buffalo Reentry Center')).toBeChecked();
    expect(box('Cortland Facility')).not.toBeChecked();
    expect(box('Dutchess House')).not.toBeChecked();
    // Each default site says why it is there.
    expect(box('Albany Correctional')).toHaveAccessibleDescription('Your cohorts');
    expect(box('Cortland Facility')).not.toHaveAccessibleDescription();
    expect(within(list()).getAllByText('Your cohorts')).toHaveLength(2);
    expect(screen.getByText(/Participants, cohorts and sessions of the other sites stay on the server and can still be found online\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Back to my sites' })).toBeDisabled();
  });

  it('saves the ticked sites as the coach\'s choice, asks for a sync and says so', async () => {
    await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope() });
    await renderAtSync(<SitesOnTabletPanel />);
    await screen.findByText('2 of 4 sites on this tablet');
    await userEvent.click(box('Cortland Facility'));
    await userEvent.click(box('Buffalo Reentry Center'));
    expect(screen.getByText('2 of 4 sites on this tablet')).toBeInTheDocument();
    await userEvent.click(box('Dutchess House'));
    expect(screen.getByText('3 of 4 sites on this tablet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Sites on this tablet saved')).toBeInTheDocument();
    expect(await storedChoice()).toEqual({ userId: COACH.id, added: ['s3', 's4'], removed: ['s2'] });
    expect(world.syncNowCalls()).toBe(1);
    // The choice is what the panel shows now; the tablet follows at the next sync.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(box('Buffalo Reentry Center')).not.toBeChecked();
    expect(box('Cortland Facility')).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('Saved. This tablet changes at the next sync.');
    expect(screen.getByRole('button', { name: 'Back to my sites' })).toBeEnabled();
  });

  it('shows a saved choice, and Back to my sites forgets it', async () => {
    await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope({ siteIds: ['s1', 's3'] }) });
    await db.meta.put({ key: SITE_CHOICE_KEY, value: { userId: COACH.id, added: ['s3'], removed: ['s2'] } satisfies SiteChoice });
    await renderAtSync(<SitesOnTabletPanel />);
    await screen.findByText('2 of 4 sites on this tablet');
    expect(box('Cortland Facility')).toBeChecked();
    expect(box('Buffalo Reentry Center')).not.toBeChecked();
    // Still marked as one of the coach's own, though left off.
    expect(box('Buffalo Reentry Center')).toHaveAccessibleDescription('Your cohorts');

    await userEvent.click(screen.getByRole('button', { name: 'Back to my sites' }));
    expect(await screen.findByText('This tablet holds your sites again')).toBeInTheDocument();
    await waitFor(async () => expect(await storedChoice()).toBeUndefined());
    expect(world.syncNowCalls()).toBe(1);
    await waitFor(() => expect(box('Buffalo Reentry Center')).toBeChecked());
    expect(box('Cortland Facility')).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Back to my sites' })).toBeDisabled();
  });

  it('Back to my sites also undoes ticks not saved yet, without writing', async () => {
    await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope() });
    await renderAtSync(<SitesOnTabletPanel />);
    await screen.findByText('2 of 4 sites on this tablet');
    await userEvent.click(box('Dutchess House'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Back to my sites' }));
    expect(box('Dutchess House')).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(await storedChoice()).toBeUndefined();
    expect(world.syncNowCalls()).toBe(0);
  });

  it('ignores another user\'s scope and choice: the sites are known after the first sync', async () => {
    await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope({ userId: 'someone-else' }) });
    await renderAtSync(<SitesOnTabletPanel />);
    expect(await screen.findByText(/This tablet's sites are known after its first sync\./)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('an administrator holds every site by default (Every site mode) and may leave some off', async () => {
    // s4 was created after the engine derived the scope: every site is still the default.
    await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope({ userId: ADMIN.id, all: true, siteIds: ['s1', 's2', 's3'], defaultSiteIds: ['s1', 's2', 's3'] }) });
    let calls = 0;
    Object.assign(world.data, { userId: ADMIN.id, sync: { syncNow: () => void (calls += 1), localWrite: () => undefined } });
    await renderAtSync(<SitesOnTabletPanel />, ADMIN);
    expect(await screen.findByText('4 of 4 sites on this tablet')).toBeInTheDocument();
    expect(screen.getByText('Every site')).toBeInTheDocument();
    expect(screen.getByText(/'Every site' mode/)).toBeInTheDocument();
    for (const b of screen.getAllByRole('checkbox')) expect(b).toBeChecked();
    expect(screen.queryByText('Your cohorts')).not.toBeInTheDocument();

    await userEvent.click(box('Dutchess House'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Sites on this tablet saved')).toBeInTheDocument();
    expect(await storedChoice()).toEqual({ userId: ADMIN.id, added: [], removed: ['s4'] });
    expect(calls).toBe(1);
    await waitFor(() => expect(screen.queryByText('Every site')).not.toBeInTheDocument());
  });

  it('stays usable with 200 sites: a filter and a list of bounded height', async () => {
    await db.sites.clear();
    const many = Array.from({ length: 200 }, (_, i) => ({ id: `site-${i}`, site_name: `Facility ${String(i).padStart(3, '0')}`, city: i === 150 ? 'Yonkers' : 'Elsewhere' }));
    await db.sites.bulkPut(many);
    await db.meta.put({ key: TABLET_SCOPE_KEY, value: scope({ siteIds: ['site-1', 'site-2', 'site-3'], defaultSiteIds: ['site-1', 'site-2', 'site-3'] }) });
    await renderAtSync(<SitesOnTabletPanel />);
    expect(await screen.findByText('3 of 200 sites on this tablet')).toBeInTheDocument();
    expect(list().className).toMatch(/max-h-/);
    expect(list().className).toMatch(/overflow-y-auto/);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter sites' }), 'yonk');
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    await userEvent.click(box('Facility 150'));
    // Sites hidden by the filter keep their ticks.
    expect(screen.getByText('4 of 200 sites on this tablet')).toBeInTheDocument();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Filter sites' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter sites' }), 'nothing like it');
    expect(screen.getByText('No sites match the filter.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Sites on this tablet saved')).toBeInTheDocument();
    expect(await storedChoice()).toEqual({ userId: COACH.id, added: ['site-150'], removed: [] });
  });
});
