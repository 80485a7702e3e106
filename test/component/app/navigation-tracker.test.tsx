import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from '@tanstack/react-router';
import { NavigationTracker } from '../../../src/app/tracking/navigation-tracker';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderTracker(path: string, props: { isAuthenticated: boolean; logPage: (p: string) => Promise<unknown> }) {
  const root = createRootRoute({
    component: () => (
      <>
        <NavigationTracker {...props} />
        <Link to="/cohorts">Cohorts</Link>
        <Outlet />
      </>
    ),
  });
  const routes = ['/', '/participants', '/cohorts', '/nowhere'].map((p) => createRoute({ getParentRoute: () => root, path: p, component: () => <p>{p}</p> }));
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: [path] }) });
  render(<RouterProvider router={router} />);
  return router;
}

describe('usage log and frame messages on route changes', () => {
  it('logs the page name of each visited page when signed in; failures are ignored', async () => {
    const logPage = vi.fn(async () => Promise.reject(new Error('500')));
    const router = renderTracker('/participants', { isAuthenticated: true, logPage });
    await waitFor(() => expect(logPage).toHaveBeenCalledWith('Participants'));
    await router.navigate({ to: '/cohorts' });
    await waitFor(() => expect(logPage).toHaveBeenLastCalledWith('Cohorts'));
    await router.navigate({ to: '/' });
    await waitFor(() => expect(logPage).toHaveBeenLastCalledWith('Dashboard'));
    await router.navigate({ to: '/nowhere' });
    await new Promise((r) => setTimeout(r, 50));
    expect(logPage).toHaveBeenCalledTimes(3); // no page name for an unknown path
  });

  it('logs nothing when signed out or offline', async () => {
    const logPage = vi.fn(async () => undefined);
    renderTracker('/participants', { isAuthenticated: false, logPage });
    cleanup();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderTracker('/cohorts', { isAuthenticated: true, logPage });
    await new Promise((r) => setTimeout(r, 50));
    expect(logPage).not.toHaveBeenCalled();
  });

  it('inside a frame, tells the parent each new URL', async () => {
    const posted: unknown[] = [];
    vi.spyOn(window, 'top', 'get').mockReturnValue({} as Window);
    vi.spyOn(window.parent, 'postMessage').mockImplementation((m: unknown) => void posted.push(m));
    const router = renderTracker('/participants', { isAuthenticated: false, logPage: vi.fn() });
    await waitFor(() => expect(posted).toHaveLength(1));
    await router.navigate({ to: '/cohorts' });
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual({ type: 'app_changed_url', url: window.location.href });
  });
});
