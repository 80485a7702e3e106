import { describe, expect, it } from 'vitest';
import { lockedUntil, recordFailure, recordSuccess } from '../../../server/auth/lockout';
import { hashPassword, passwordProblem, verifyPassword } from '../../../server/auth/password';
import { emailOfResetToken, hashSecret, newOtp, newResetToken, sameHash } from '../../../server/auth/secrets';
import { issueToken, readToken, secretKey } from '../../../server/auth/tokens';

describe('passwords', () => {
  it('hashes with a per-user salt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$16384$8$1$')).toBe(true);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'garbage')).toBe(false);
  });

  it('requires at least 8 characters', () => {
    expect(passwordProblem('1234567')).toMatch(/at least 8/);
    expect(passwordProblem('12345678')).toBeNull();
    expect(passwordProblem(undefined)).toMatch(/required/);
  });
});

describe('tokens', () => {
  const key = secretKey('a-test-secret-that-is-long-enough-000');
  const now = new Date('2026-11-22T08:00:00Z');

  it('carries the user and app, and expires after 12 hours', async () => {
    const token = await issueToken(key, 'user-1', 'passage', now);
    expect(await readToken(key, token, now)).toMatchObject({ sub: 'user-1', app_id: 'passage' });
    expect(await readToken(key, token, new Date(now.getTime() + 11.9 * 3600_000))).not.toBeNull();
    expect(await readToken(key, token, new Date(now.getTime() + 12.1 * 3600_000))).toBeNull();
  });

  it('carries the session, the time of the sign-in and the device when given (issue #21)', async () => {
    const token = await issueToken(key, 'user-1', 'passage', now, 3, { sid: 'S1D', authTime: 1_790_000_000, did: 'device-0123456789' });
    expect(await readToken(key, token, now)).toMatchObject({ sub: 'user-1', ver: 3, sid: 'S1D', auth_time: 1_790_000_000, did: 'device-0123456789' });
    const bare = await readToken(key, await issueToken(key, 'user-1', 'passage', now, 0, { sid: 'S2', authTime: 5 }), now);
    expect(bare).toMatchObject({ sid: 'S2', auth_time: 5 });
    expect(bare).not.toHaveProperty('did');
    expect(await readToken(key, await issueToken(key, 'user-1', 'passage', now), now)).not.toHaveProperty('sid');
  });

  it('refuses tokens signed with another key or altered', async () => {
    const token = await issueToken(key, 'user-1', 'passage', now);
    expect(await readToken(secretKey('another-secret-another-secret-00'), token, now)).toBeNull();
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', app_id: 'passage', exp: 2e9 })).toString('base64url');
    expect(await readToken(key, `${h}.${forged}.${s}`, now)).toBeNull();
    expect(await readToken(key, `${h}.${p}`, now)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(await readToken(key, `${none}.${p}.`, now)).toBeNull();
  });
});

describe('lockout', () => {
  const t0 = new Date('2026-11-22T08:00:00Z');
  const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

  it('locks for 15 minutes after 5 failures within 15 minutes', () => {
    let state = recordSuccess();
    for (let i = 0; i < 4; i++) state = recordFailure(state, at(i));
    expect(lockedUntil(state, at(4))).toBeNull();
    state = recordFailure(state, at(4));
    expect(lockedUntil(state, at(4))?.toISOString()).toBe(at(19).toISOString());
    expect(lockedUntil(state, at(18.9))).not.toBeNull();
    expect(lockedUntil(state, at(19.1))).toBeNull();
  });

  it('forgets failures older than 15 minutes', () => {
    let state = recordSuccess();
    for (let i = 0; i < 4; i++) state = recordFailure(state, at(i));
    state = recordFailure(state, at(15.5)); // the first failure (minute 0) has left the window
    expect(lockedUntil(state, at(15.5))).toBeNull();
    expect(state.failed_logins).toHaveLength(4);
  });
});

describe('one-time secrets', () => {
  it('makes 6-digit codes and reset tokens that name their account', () => {
    for (let i = 0; i < 50; i++) expect(newOtp()).toMatch(/^\d{6}$/);
    const token = newResetToken('ana@example.org');
    expect(emailOfResetToken(token)).toBe('ana@example.org');
    expect(emailOfResetToken('junk')).toBeNull();
    expect(newResetToken('ana@example.org')).not.toBe(token);
  });

  it('compares keyed hashes, never the secret itself', () => {
    const h = hashSecret('k', 'otp:a@x.org', '123456');
    expect(h).not.toContain('123456');
    expect(sameHash(h, hashSecret('k', 'otp:a@x.org', '123456'))).toBe(true);
    expect(sameHash(h, hashSecret('k', 'otp:a@x.org', '123457'))).toBe(false);
    expect(sameHash(h, hashSecret('k2', 'otp:a@x.org', '123456'))).toBe(false);
    expect(sameHash(undefined, h)).toBe(false);
  });
});
