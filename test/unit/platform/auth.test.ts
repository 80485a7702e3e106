import { describe, expect, it } from 'vitest';
import { createPlatformClient, PlatformError } from '../../../src/platform';
import { fakeFetch } from './fake-fetch';

function setup(replies: Parameters<typeof fakeFetch>[0] = []) {
  const f = fakeFetch(replies);
  const tokens: (string | null)[] = [];
  const c = createPlatformClient({
    serverUrl: '',
    appId: 'passage',
    getToken: () => 'T',
    fetch: f.fetch,
    originUrl: 'x',
    appBaseUrl: 'https://base.example',
    setToken: (t) => tokens.push(t),
  });
  return { c, calls: f.calls, tokens };
}

describe('auth', () => {
  it('me and updateMe use User/me; concurrent me() calls share one request', async () => {
    const { c, calls } = setup([{ body: { id: 'u1', email: 'a@b' } }, { body: { id: 'u1', phone: '5' } }]);
    const [a, b] = await Promise.all([c.auth.me(), c.auth.me()]);
    expect(a).toEqual({ id: 'u1', email: 'a@b' });
    expect(b).toBe(a);
    await c.auth.updateMe({ phone: '5' });
    expect(calls.map((x) => `${x.method} ${x.url}`)).toEqual([
      'GET /api/apps/passage/entities/User/me',
      'PUT /api/apps/passage/entities/User/me',
    ]);
    expect(calls[1].body).toEqual({ phone: '5' });
  });

  it('login posts credentials and hands over the token; a 401 login clears it', async () => {
    const { c, calls, tokens } = setup([
      { body: { access_token: 'NEWTOK', user: { id: 'u' } } },
      { status: 401, body: { message: 'Invalid email or password' } },
    ]);
    expect((await c.auth.login('a@b', 'pw')).access_token).toBe('NEWTOK');
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/apps/passage/auth/login', body: { email: 'a@b', password: 'pw' } });
    await expect(c.auth.login('a@b', 'bad')).rejects.toMatchObject({ status: 401, message: 'Invalid email or password' });
    expect(tokens).toEqual(['NEWTOK', null]);
  });

  it('a login failing for another reason keeps the stored token', async () => {
    const { c, tokens } = setup([new TypeError('Failed to fetch')]);
    await expect(c.auth.login('a@b', 'pw')).rejects.toBeInstanceOf(PlatformError);
    expect(tokens).toEqual([]);
  });

  it('the other auth endpoints send the contract bodies', async () => {
    const { c, calls } = setup();
    await c.auth.register({ email: 'e', password: 'p' });
    await c.auth.verifyOtp({ email: 'e', otpCode: '123' });
    await c.auth.resendOtp('e');
    await c.auth.resetPasswordRequest('e');
    await c.auth.resetPassword({ resetToken: 'r', newPassword: 'n' });
    await c.auth.changePassword({ userId: 'u', currentPassword: 'c', newPassword: 'n' });
    await c.auth.inviteUser('x@y', 'user');
    expect(calls.map((x) => [x.url.replace('/api/apps/passage', ''), x.body])).toEqual([
      ['/auth/register', { email: 'e', password: 'p' }],
      ['/auth/verify-otp', { email: 'e', otp_code: '123' }],
      ['/auth/resend-otp', { email: 'e' }],
      ['/auth/reset-password-request', { email: 'e' }],
      ['/auth/reset-password', { reset_token: 'r', new_password: 'n' }],
      ['/auth/change-password', { user_id: 'u', current_password: 'c', new_password: 'n' }],
      ['/users/invite-user', { user_email: 'x@y', role: 'user' }],
    ]);
  });

  it('redirectToLogin refuses to run outside a browser', () => {
    const { c } = setup();
    expect(() => c.auth.redirectToLogin('/x')).toThrow('Login method can only be used in a browser environment');
  });

  it('logoutUrl keeps from_url as given, encoded', () => {
    const { c } = setup();
    expect(c.auth.logoutUrl('/bye')).toBe('https://base.example/api/apps/auth/logout?from_url=%2Fbye');
  });
});

describe('public settings and usage log', () => {
  it('getPublicSettings reads by app id; logUserInApp posts with no body', async () => {
    const { c, calls } = setup([{ body: { id: 'passage', public_settings: 'private_with_login' } }, { status: 200, body: '' }]);
    expect(await c.getPublicSettings()).toEqual({ id: 'passage', public_settings: 'private_with_login' });
    await c.appLogs.logUserInApp('Participant Detail');
    expect(calls[0].url).toBe('/api/apps/public/prod/public-settings/by-id/passage');
    expect(calls[0].headers.get('Authorization')).toBe('Bearer T');
    expect(calls[1]).toMatchObject({ method: 'POST', url: '/api/app-logs/passage/log-user-in-app/Participant%20Detail', body: undefined });
  });
});
