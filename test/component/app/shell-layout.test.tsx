import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderShell } from './render-shell';
import { USERS } from './fake-platform';

function clearCookie() {
  document.cookie = 'sidebar_state=; path=/; max-age=0';
}

/** A phone (< 768 px), a portrait tablet (768 px) or a landscape tablet or desk (≥ 1024 px). */
function setViewport(kind: 'phone' | 'portrait' | 'wide') {
  const width = { phone: 390, portrait: 768, wide: 1024 }[kind];
  window.matchMedia = ((query: string) => ({
    matches: query.includes('max-width: 767px') ? width < 768 : query.includes('min-width: 1024px') ? width >= 1024 : false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

beforeEach(() => {
  clearCookie();
  setViewport('wide');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  clearCookie();
});

const sidebar = () => screen.getByRole('complementary', { name: 'Sidebar' });

describe('sidebar (spec 2.2)', { timeout: 20_000 }, () => {
  it('Ctrl+B and Cmd+B collapse and expand it and remember the state in the cookie', async () => {
    renderShell('/', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(sidebar()).toHaveAttribute('data-state', 'expanded');
    expect(sidebar()).toHaveStyle({ width: '16rem' });

    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(sidebar()).toHaveAttribute('data-state', 'collapsed');
    expect(sidebar()).toHaveStyle({ width: '3rem' });
    expect(document.cookie).toContain('sidebar_state=false');

    fireEvent.keyDown(window, { key: 'b', metaKey: true });
    expect(sidebar()).toHaveAttribute('data-state', 'expanded');
    expect(document.cookie).toContain('sidebar_state=true');
  });

  it('starts collapsed when the cookie says so, and the header toggle expands it', async () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderShell('/', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(sidebar()).toHaveAttribute('data-state', 'collapsed');
    fireEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    expect(sidebar()).toHaveAttribute('data-state', 'expanded');
  });

  it('on a portrait tablet with no saved choice it starts as the 3rem icon rail; the header names who is signed in (issue #23.9)', async () => {
    setViewport('portrait');
    renderShell('/', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(sidebar()).toHaveAttribute('data-state', 'collapsed');
    expect(sidebar()).toHaveStyle({ width: '3rem' });
    expect(within(sidebar()).getByRole('link', { name: 'Participants' })).toBeInTheDocument();
    // Shown from 768 px up (jsdom applies no CSS: the class is what a portrait tablet sees).
    const who = within(screen.getByRole('banner')).getByText(USERS.coach.email);
    expect(who.parentElement).toHaveClass('md:block');
    expect(who.parentElement?.className).not.toMatch(/(^|\s)lg:block/);
    // The toggle opens it, and that choice is saved and kept on the next start.
    fireEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    expect(sidebar()).toHaveAttribute('data-state', 'expanded');
    expect(document.cookie).toContain('sidebar_state=true');
  });

  it('a saved choice wins over the width: open on a portrait tablet when the coach left it open', async () => {
    setViewport('portrait');
    document.cookie = 'sidebar_state=true; path=/';
    renderShell('/', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(sidebar()).toHaveAttribute('data-state', 'expanded');
  });

  it('collapsed icons show their label after 700 ms, not before', async () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderShell('/', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    vi.useFakeTimers();
    const link = within(sidebar()).getByRole('link', { name: 'Cohorts' });
    fireEvent.mouseEnter(link.parentElement!);
    act(() => vi.advanceTimersByTime(650));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Cohorts');
    fireEvent.mouseLeave(link.parentElement!);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('under 768px the toggle opens a slide-in panel that closes with Escape', async () => {
    setViewport('phone');
    renderShell('/', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    const panel = await screen.findByRole('dialog', { name: 'Participant Management System' });
    expect(within(panel).getByRole('link', { name: 'Participants' })).toBeInTheDocument();
    fireEvent.keyDown(panel, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // On mobile Ctrl+B opens the panel too, and the desktop cookie is left alone.
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(document.cookie).not.toContain('sidebar_state');
  });

  it('users who are not approved see no sidebar entries they cannot open (issue #12.5)', async () => {
    for (const me of [USERS.pending, USERS.newcoach, { ...USERS.pending, id: 'r1', role: 'guest' as const }]) {
      renderShell('/profilesetup', { me });
      await screen.findByText(me.email);
      expect(within(sidebar()).queryAllByRole('link')).toHaveLength(0);
      cleanup();
    }
    renderShell('/', { me: USERS.coach });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(within(sidebar()).getAllByRole('link').map((l) => l.textContent)).toEqual(['Dashboard', 'Participants', 'Cohorts', 'Programs & Sites', 'Add Participant']);
  });

  it('the header shows the user and Log out stops sync and goes to the logout URL', async () => {
    const { env } = renderShell('/', { me: USERS.coach }, { pending: 0 });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(screen.getByText('Cora Coach')).toBeInTheDocument();
    expect(screen.getByText('coach@example.org')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(env.navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/api\/apps\/auth\/logout\?from_url=/)));
    expect(env.sync.stop).toHaveBeenCalled();
    expect(env.clearToken).toHaveBeenCalled();
    expect(env.session.clearLocalData).toHaveBeenCalled();
    expect(screen.queryByText('coach@example.org')).not.toBeInTheDocument();
  });

  it('Log out with the server out of reach reloads (served offline) instead of loading the logout URL (issue #9.8)', async () => {
    const server = { settings: 'offline' as const, me: 'offline' as const };
    const { env } = renderShell('/', server, { pending: 0, cachedUser: USERS.coach });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(env.reload).toHaveBeenCalled());
    expect(env.navigate).not.toHaveBeenCalled();
    expect(env.clearToken).toHaveBeenCalled();
    expect(env.session.clearLocalData).toHaveBeenCalled();
  });

  it('logout with pending changes asks first; staying keeps everything running', async () => {
    const { env } = renderShell('/', { me: USERS.coach }, { pending: 3, confirm: false });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(env.confirmLogout).toHaveBeenCalledWith(3));
    expect(env.sync.stop).not.toHaveBeenCalled();
    expect(env.clearToken).not.toHaveBeenCalled();
    expect(env.navigate).not.toHaveBeenCalled();
    expect(screen.getByText('coach@example.org')).toBeInTheDocument();
  });

  it('confirmed logout with pending changes keeps the local copy (the changes live there)', async () => {
    const { env } = renderShell('/', { me: USERS.coach }, { pending: 3, confirm: true });
    await screen.findByRole('heading', { name: 'Dashboard page' });
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(env.navigate).toHaveBeenCalled());
    expect(env.sync.stop).toHaveBeenCalled();
    expect(env.session.clearLocalData).not.toHaveBeenCalled();
  });
});
