import { describe, expect, it, vi } from 'vitest';
import { runStartup, type StartupDeps } from '../../../src/app/auth/startup';
import { PlatformError } from '../../../src/platform';
import type { User } from '../../../shared/entities';

const coach: User = { id: 'u1', email: 'coach@example.org', role: 'user', approved: true, requested_access_date: '2026-01-02' };
const settings = { id: 'passage', public_settings: 'private_with_login' };
const offline = () => new PlatformError('Failed to fetch', { code: 'NETWORK_ERROR' });

function deps(over: Partial<StartupDeps> & { settings?: () => Promise<unknown>; me?: () => Promise<User> } = {}): StartupDeps {
  return {
    client: {
      getPublicSettings: (over.settings ?? (async () => settings)) as StartupDeps['client']['getPublicSettings'],
      auth: { me: over.me ?? (async () => coach) },
    },
    hasToken: over.hasToken ?? true,
    getCachedUser: over.getCachedUser ?? (async () => null),
    cacheCurrentUser: over.cacheCurrentUser ?? (async () => undefined),
    onPublicSettings: over.onPublicSettings,
  };
}

describe('start-up (spec.md 2.3)', () => {
  it('loads public settings, then the user, and caches the user', async () => {
    const cache = vi.fn(async () => undefined);
    const seen = vi.fn();
    const r = await runStartup(deps({ cacheCurrentUser: cache, onPublicSettings: seen }));
    expect(r).toMatchObject({ user: coach, isAuthenticated: true, authError: null, publicSettings: settings, offline: false });
    expect(cache).toHaveBeenCalledWith(coach);
    expect(seen).toHaveBeenCalledWith(settings);
  });

  it('without a token and with no connection, signed out and needing one (not the login page, issue #9.8)', async () => {
    const r = await runStartup(deps({ hasToken: false, settings: async () => Promise.reject(offline()) }));
    expect(r).toMatchObject({ isAuthenticated: false, authError: null, needsConnection: true });
  });

  it('without a token the user is not fetched and stays signed out', async () => {
    const me = vi.fn(async () => coach);
    const r = await runStartup(deps({ hasToken: false, me }));
    expect(me).not.toHaveBeenCalled();
    expect(r).toMatchObject({ isAuthenticated: false, authError: null, user: null });
  });

  it('public settings 403 auth_required stops start-up with that error', async () => {
    const r = await runStartup(
      deps({ settings: async () => Promise.reject(new PlatformError('Auth', { status: 403, data: { extra_data: { reason: 'auth_required' } } })) }),
    );
    expect(r.authError).toEqual({ type: 'auth_required', message: 'Authentication required' });
    expect(r.isAuthenticated).toBe(false);
  });

  it('me 401 → auth_required; me 500 → signed out with the reason kept for the screen', async () => {
    const r401 = await runStartup(deps({ me: async () => Promise.reject(new PlatformError('Invalid token', { status: 401 })) }));
    expect(r401.authError?.type).toBe('auth_required');
    const r500 = await runStartup(deps({ me: async () => Promise.reject(new PlatformError('Internal error', { status: 500 })) }));
    expect(r500).toMatchObject({ isAuthenticated: false, authError: null, userLoadError: 'Internal error' });
  });

  it('offline with a token and a cached user starts with the cached user', async () => {
    const r = await runStartup(deps({ settings: async () => Promise.reject(offline()), getCachedUser: async () => coach }));
    expect(r).toMatchObject({ user: coach, isAuthenticated: true, authError: null, offline: true });
    const r2 = await runStartup(deps({ me: async () => Promise.reject(offline()), getCachedUser: async () => coach }));
    expect(r2).toMatchObject({ user: coach, isAuthenticated: true, offline: true, publicSettings: settings });
  });

  it('offline without a cached user, or without a token, does not pretend to be signed in', async () => {
    const noCache = await runStartup(deps({ settings: async () => Promise.reject(offline()) }));
    expect(noCache).toMatchObject({ isAuthenticated: false, authError: { type: 'unknown', message: 'Failed to fetch' } });
    const noToken = await runStartup(deps({ hasToken: false, settings: async () => Promise.reject(offline()), getCachedUser: async () => coach }));
    expect(noToken.isAuthenticated).toBe(false);
  });

  it('an HTTP answer is believed even when a cached user exists', async () => {
    const r = await runStartup(
      deps({
        settings: async () => Promise.reject(new PlatformError('x', { status: 403, data: { extra_data: { reason: 'user_not_registered' } } })),
        getCachedUser: async () => coach,
      }),
    );
    expect(r).toMatchObject({ isAuthenticated: false, authError: { type: 'user_not_registered' } });
  });

  it('a cache write failure does not block start-up', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const r = await runStartup(deps({ cacheCurrentUser: async () => Promise.reject(new Error('QuotaExceededError')) }));
    expect(r.isAuthenticated).toBe(true);
    warn.mockRestore();
  });

  it('a non-HTTP failure of public settings is unknown with its message', async () => {
    const r = await runStartup(deps({ settings: () => { throw new TypeError('boom'); } }));
    expect(r.authError).toEqual({ type: 'unknown', message: 'boom' });
  });

  it('an unexpected exception elsewhere becomes the unexpected-error entry', async () => {
    const r = await runStartup(deps({ onPublicSettings: () => { throw new Error('render failed'); } }));
    expect(r.authError).toEqual({ type: 'unknown', message: 'An unexpected error occurred' });
  });
});
