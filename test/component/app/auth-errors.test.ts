import { describe, expect, it } from 'vitest';
import { currentUserError, isTransportFailure, publicSettingsError } from '../../../src/app/auth/auth-errors';
import { PlatformError } from '../../../src/platform';

const forbidden = (reason?: string, message = 'Forbidden') =>
  new PlatformError(message, { status: 403, data: reason ? { message, extra_data: { reason } } : { message } });

describe('the error catalogue of spec.md 8', () => {
  it('public settings: 403 reasons', () => {
    expect(publicSettingsError(forbidden('auth_required'))).toEqual({ type: 'auth_required', message: 'Authentication required' });
    expect(publicSettingsError(forbidden('user_not_registered'))).toEqual({
      type: 'user_not_registered',
      message: 'User not registered for this app',
    });
    expect(publicSettingsError(forbidden('app_suspended', 'This app is suspended'))).toEqual({ type: 'app_suspended', message: 'This app is suspended' });
  });

  it('public settings: other failures are unknown with the message, or Failed to load app', () => {
    expect(publicSettingsError(new PlatformError('Internal error', { status: 500 }))).toEqual({ type: 'unknown', message: 'Internal error' });
    expect(publicSettingsError(forbidden(undefined, 'Forbidden'))).toEqual({ type: 'unknown', message: 'Forbidden' });
    expect(publicSettingsError(new PlatformError('', { status: 502 }))).toEqual({ type: 'unknown', message: 'Failed to load app' });
    expect(publicSettingsError(null)).toEqual({ type: 'unknown', message: 'An unexpected error occurred' });
  });

  it('current user: 401 and 403 need sign-in; anything else leaves the user signed out', () => {
    expect(currentUserError(new PlatformError('x', { status: 401 }))).toEqual({ type: 'auth_required', message: 'Authentication required' });
    expect(currentUserError(new PlatformError('x', { status: 403 }))).toEqual({ type: 'auth_required', message: 'Authentication required' });
    expect(currentUserError(new PlatformError('x', { status: 500 }))).toBeNull();
  });

  it('a transport failure is one with no HTTP status', () => {
    expect(isTransportFailure(new PlatformError('fetch failed', { code: 'NETWORK_ERROR' }))).toBe(true);
    expect(isTransportFailure(new PlatformError('x', { status: 503 }))).toBe(false);
    expect(isTransportFailure(new Error('plain'))).toBe(false);
  });
});
