import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderShell } from './render-shell';
import { USERS } from './fake-platform';

afterEach(cleanup);

describe('start-up states', { timeout: 20_000 }, () => {
  it('shows a spinner while public settings load', async () => {
    renderShell('/', { settings: 'hang' });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading Passage…');
  });

  it('auth_required sends the browser to login with the current page', async () => {
    const { env } = renderShell('/cohorts', { settings: 'auth_required' }, { token: null });
    await waitFor(() => expect(env.navigate).toHaveBeenCalledTimes(1));
    // spec 2.3's address, with the PKCE challenge of issue #21.1 after it.
    expect(env.navigate.mock.calls[0][0]).toMatch(new RegExp(`^/login\\?from_url=${encodeURIComponent(window.location.href).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}&code_challenge=`));
    expect(env.loginUrl).toHaveBeenCalledWith(window.location.href);
    expect(screen.getByRole('status')).toHaveTextContent('Redirecting to sign in…');
  });

  it('a rejected token (me 401) also goes to login', async () => {
    const { env } = renderShell('/', { me: { status: 401 } });
    await waitFor(() => expect(env.navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/login\?from_url=/)));
  });

  it('user_not_registered shows Access Restricted with its tips and a working Log out', async () => {
    const { env } = renderShell('/', { settings: 'user_not_registered' });
    expect(await screen.findByRole('heading', { name: 'Access Restricted' })).toBeInTheDocument();
    expect(
      screen.getByText('You are not registered to use this application. Please contact the app administrator to request access.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Verify you are logged in with the correct account')).toBeInTheDocument();
    expect(screen.getByText('Contact the app administrator for access')).toBeInTheDocument();
    expect(screen.getByText('Try logging out and back in again')).toBeInTheDocument();
    screen.getByRole('button', { name: 'Log out' }).click();
    await waitFor(() => expect(env.navigate).toHaveBeenCalledWith(`/api/apps/auth/logout?from_url=${encodeURIComponent(window.location.href)}`));
    expect(env.clearToken).toHaveBeenCalled();
    expect(env.sync.stop).toHaveBeenCalled();
  });

  it('a server error on me shows the start-up error with Try again', async () => {
    renderShell('/', { me: { status: 500 } });
    expect(await screen.findByRole('heading', { name: 'Passage could not start' })).toBeInTheDocument();
    expect(screen.getByText('Nope')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('signed out and offline: says sign-in needs a connection, and Try again goes to login once online (issue #9.8)', async () => {
    const server: { settings: 'offline' | 'ok' } = { settings: 'offline' };
    const { env } = renderShell('/participants', server, { token: null });
    expect(await screen.findByRole('heading', { name: 'You are signed out' })).toBeInTheDocument();
    expect(screen.getByText(/Signing in needs a connection/)).toBeInTheDocument();
    expect(env.navigate).not.toHaveBeenCalled();
    server.settings = 'ok';
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(env.navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/login\?from_url=/)));
  });

  it('offline with a stored token and a cached user starts with that user', async () => {
    const { env } = renderShell('/participants', { settings: 'offline', me: 'offline' }, { cachedUser: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'Participants page' })).toBeInTheDocument();
    expect(screen.getByText('coach@example.org')).toBeInTheDocument();
    expect(env.navigate).not.toHaveBeenCalled();
    await waitFor(() => expect(env.sync.start).toHaveBeenCalledWith(expect.objectContaining({ user: USERS.coach })));
  });
});

describe('routing', { timeout: 20_000 }, () => {
  it('a signed-in coach sees the layout and the page; sync starts; the visit is logged', async () => {
    const { env, calls } = renderShell('/participants', { me: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'Participants page' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual([
      'Dashboard',
      'Participants',
      'Cohorts',
      'Programs & Sites',
      'Add Participant',
    ]);
    expect(within(nav).getByRole('link', { name: 'Participants' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Participant Management System')).toBeInTheDocument();
    expect(env.sync.start).toHaveBeenCalledWith(expect.objectContaining({ user: USERS.coach }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/log-user-in-app/Participants'))).toBe(true));
  });

  it('/ and /dashboard are the Dashboard; paths match case-insensitively; detail pages get ?id=', async () => {
    renderShell('/', { me: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    cleanup();
    renderShell('/DASHBOARD', { me: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    cleanup();
    renderShell('/ParticipantDetail?id=123', { me: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'ParticipantDetail page for 123' })).toBeInTheDocument();
    cleanup();
    renderShell('/sitedetail?id=tmp-1e5', { me: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'SiteDetail page for tmp-1e5' })).toBeInTheDocument();
  });

  it('/sync is the Sync page', async () => {
    renderShell('/sync', { me: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'Sync page' })).toBeInTheDocument();
  });

  it('another user\'s changes still on the device hold the app at the S11 gate', async () => {
    const { env } = renderShell('/participants', { me: USERS.coach }, { others: ['someone-else'] });
    expect(await screen.findByRole('heading', { name: "Another user's changes are waiting" })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Participants page' })).not.toBeInTheDocument();
    expect(env.sync.start).not.toHaveBeenCalled();
    // Signing out from there keeps the other user's changes (and the copy they live in).
    screen.getByRole('button', { name: 'Sign out so they can sync' }).click();
    await waitFor(() => expect(env.navigate).toHaveBeenCalled());
    expect(env.session.clearLocalData).not.toHaveBeenCalled();
  });

  it('admins also see User Approvals', async () => {
    renderShell('/', { me: USERS.admin, users: [] });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'User Approvals' })).toHaveAttribute('href', '/adminapprovals');
  });

  it('unknown paths show the 404 screen, without the admin note for a coach', async () => {
    renderShell('/no-such-page', { me: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('The page "no-such-page" could not be found in this application.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    expect(screen.queryByText('Admin Note')).not.toBeInTheDocument();
    // Inside the app shell (issue #12.8): the sidebar and the header's Log out stay.
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Participants' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('a user held at ProfileSetup still sees the 404 screen for an unknown path', async () => {
    const { history } = renderShell('/no-such-page', { me: USERS.pending });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/no-such-page');
  });

  it('admins get the note on the 404 screen', async () => {
    renderShell('/old/bookmark', { me: USERS.admin });
    expect(await screen.findByText('Admin Note')).toBeInTheDocument();
    expect(screen.getByText('The page "old/bookmark" could not be found in this application.')).toBeInTheDocument();
    expect(screen.getByText(/mistyped or come from an old bookmark/)).toBeInTheDocument();
  });
});

describe('access guard', { timeout: 20_000 }, () => {
  it('a user without a profile is sent to ProfileSetup from any page', async () => {
    const { history } = renderShell('/cohorts', { me: USERS.newcoach });
    expect(await screen.findByText('Complete your coach profile to request access')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/profilesetup');
    expect(screen.queryByRole('heading', { name: 'Cohorts page' })).not.toBeInTheDocument();
  });

  it('a pending user lands on Access Pending Approval', async () => {
    renderShell('/participantdetail?id=9', { me: USERS.pending });
    expect(await screen.findByRole('heading', { name: 'Access Pending Approval' })).toBeInTheDocument();
    expect(screen.getByText('Thank you for registering as a Reentry Coach!')).toBeInTheDocument();
    expect(screen.getByText('Nov 20, 2026')).toBeInTheDocument();
  });

  it('admins are never redirected, and an approved coach on ProfileSetup goes to the Dashboard', async () => {
    renderShell('/cohorts', { me: { ...USERS.admin, requested_access_date: null, approved: null } });
    expect(await screen.findByRole('heading', { name: 'Cohorts page' })).toBeInTheDocument();
    cleanup();
    const { history } = renderShell('/profilesetup', { me: USERS.coach });
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/dashboard');
  });
});
