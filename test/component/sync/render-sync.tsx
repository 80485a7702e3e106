import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { Toaster } from 'sonner';
import { CurrentUserProvider } from '../../../src/shell-api/current-user';
import { db, type OutboxOp } from '../../../src/data/db';
import type { DataContext } from '../../../src/data/context';
import { DataProvider } from '../../../src/data/provider';
import { CURRENT_USER_KEY } from '../../../src/data/session';
import { SYNC_STATUS_KEY, type SyncStatusRow } from '../../../src/data/sync/types';
import type { User } from '../../../shared/entities';
import { makeDevice } from '../../support/device';

// Live queries answer through fake-indexeddb; on 2 cores shared by six helpers' test runs a page
// can take more than the 1 s default to settle.

export const COACH: User = { id: 'user-coach', email: 'coach@example.org', full_name: 'Casey Coach', role: 'user', approved: true };

/** Fixed "now" of these tests: Nov 22 2026, 12:00 local. */
export const NOW = new Date(2026, 10, 22, 12, 0, 0).getTime();

/** The data context of the device the pages render on (over the app's database); new at each resetWorld. */
let data: DataContext = makeDevice({ db }).data;

/**
 * Empty app database, the coach signed in (cached as the runtime does), a recorder for 'Sync now'.
 * `data` is the device's data context renderAtSync provides: a test may change it before rendering.
 */
export async function resetWorld(): Promise<{ syncNowCalls: () => number; data: DataContext }> {
  await Promise.all(db.tables.map((t) => t.clear()));
  let calls = 0;
  data = makeDevice({ db, userId: COACH.id, now: () => NOW }).data;
  data.sync = { syncNow: () => void (calls += 1), localWrite: () => undefined };
  await db.meta.put({ key: CURRENT_USER_KEY, value: COACH });
  return { syncNowCalls: () => calls, data };
}

export async function setStatus(patch: Partial<SyncStatusRow>): Promise<void> {
  const base: SyncStatusRow = { online: true, syncing: false, lastSyncedAt: null, paused: null, leader: true, lastError: null, firstSync: [], firstSyncComplete: true };
  await db.meta.put({ key: SYNC_STATUS_KEY, value: { ...base, ...patch } });
}

export function op(p: Partial<OutboxOp> & Pick<OutboxOp, 'entity' | 'record_id' | 'kind' | 'data'>): OutboxOp {
  return { state: 'pending', attempts: 0, next_attempt_at: 0, user_id: COACH.id, created_at: NOW - 5 * 60_000, ...p };
}

/** Renders `element` at /sync inside a router (so links work), the current user and a Toaster. */
export async function renderAtSync(element: ReactNode, user: User = COACH) {
  const root = createRootRoute({
    component: () => (
      <CurrentUserProvider user={user} setUser={() => undefined}>
        <Outlet />
        <Toaster />
      </CurrentUserProvider>
    ),
  });
  const sync = createRoute({ getParentRoute: () => root, path: '/sync', component: () => <>{element}</> });
  const router = createRouter({ routeTree: root.addChildren([sync]), history: createMemoryHistory({ initialEntries: ['/sync'] }) });
  await router.load();
  const view = render(
    <DataProvider value={data}>
      <RouterProvider router={router} />
    </DataProvider>,
  );
  return { router, ...view };
}
