/**
 * The device functions of issue #21 (deviceKey, deviceStatus, listDevices, revokeDevice,
 * revokeUser), run on both stores: device-key.test.ts (PGlite) and device-key-postgres.test.ts
 * (PostgreSQL). The server key is a second factor: approved and active accounts only, on a fresh
 * sign-in, per device, rotated on every release and on password change, stored wrapped, limited.
 */
import { expect, it } from 'vitest';
import { createAccount } from '../../../server/auth/accounts';
import { DEFAULT_DEVICE_POLICY } from '../../../server/device-policy';
import { newDeviceId, PASSWORD, type TestServer, type Who } from './harness';

interface Released {
  key: string;
  previous: string | null;
  policy: unknown;
}

export function registerDeviceKeyTests(server: () => TestServer) {
  const A = (p: string) => `/api/apps/${server().appId}${p}`;
  const invoke = (name: string, token: string | undefined, body: unknown = {}) => server().request('POST', A(`/functions/${name}`), { token, body });
  const release = async (token: string, deviceId: string): Promise<Released> => {
    const res = await invoke('deviceKey', token, { device_id: deviceId });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Released;
  };
  /** A new approved coach (own rate-limit budget), signed in just now. */
  let n = 0;
  const newCoach = async (password?: string) => {
    const s = server();
    const email = `coach-${++n}-${s.appId}@example.org`.toLowerCase();
    const { user } = await createAccount(s.store, s.appId, {
      email,
      password,
      full_name: `Coach ${n}`,
      role: 'user',
      verified: true,
      fields: { approved: true, requested_access_date: '2026-01-05' },
    });
    return { user, email, ...(await s.signIn(user)) };
  };
  const status = async (token: string, deviceId: string) => {
    const res = await invoke('deviceStatus', token, { device_id: deviceId });
    return { code: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('gives an approved coach on a fresh sign-in 32 random bytes, no previous key and the policy, never cached', async () => {
    const coach = await newCoach();
    const res = await invoke('deviceKey', coach.token, { device_id: newDeviceId() });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Released;
    expect(Object.keys(body).sort()).toEqual(['key', 'policy', 'previous']);
    expect(body.policy).toEqual({ pin_min_length: DEFAULT_DEVICE_POLICY.pinMinLength, idle_lock_minutes: DEFAULT_DEVICE_POLICY.idleLockMinutes });
    expect(body.key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.key, 'base64')).toHaveLength(32);
    expect(body.previous).toBeNull();
    const admin = await server().signIn('admin');
    expect((await invoke('deviceKey', admin.token, { device_id: newDeviceId() })).status).toBe(200);
  });

  it('rotates the key on every release: the next release names the last key as previous', async () => {
    const coach = await newCoach();
    const device = newDeviceId();
    const first = await release(coach.token, device);
    const second = await release(coach.token, device);
    const third = await release(coach.token, device);
    expect(second.previous).toBe(first.key);
    expect(third.previous).toBe(second.key);
    expect(new Set([first.key, second.key, third.key]).size).toBe(3);
    // Another device of the same coach has its own key.
    const other = await release(coach.token, newDeviceId());
    expect(other.previous).toBeNull();
    expect([first.key, second.key, third.key]).not.toContain(other.key);
  });

  it('refuses pending, rejected, guest, no-profile (403 DEVICE_KEY_FORBIDDEN) and disabled (403) accounts', async () => {
    const s = server();
    const { user: guest } = await createAccount(s.store, s.appId, {
      email: `guest-${s.appId}@example.org`.toLowerCase(),
      full_name: 'Approved guest',
      role: 'guest',
      verified: true,
      fields: { approved: true, requested_access_date: '2026-01-05' },
    });
    for (const who of ['pending', 'rejected', 'noProfile', guest] as Array<Who | typeof guest>) {
      const { token } = await s.signIn(who);
      const res = await invoke('deviceKey', token, { device_id: newDeviceId() });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'DEVICE_KEY_FORBIDDEN' });
    }
    const disabled = await invoke('deviceKey', (await s.signIn('disabled')).token, { device_id: newDeviceId() });
    expect(disabled.status).toBe(403);
    expect(await disabled.json()).toMatchObject({ code: 'USER_NOT_REGISTERED' });
    expect((await invoke('deviceKey', undefined, { device_id: newDeviceId() })).status).toBe(401);
    expect((await invoke('deviceKey', s.tokens.otherApp, { device_id: newDeviceId() })).status).toBe(403);
  });

  it('needs a sign-in at most 5 minutes old by the server clock; a token without auth_time is not fresh', async () => {
    const s = server();
    const coach = await newCoach();
    s.clock.ms += 5 * 60_000 + 1000;
    try {
      const stale = await invoke('deviceKey', coach.token, { device_id: newDeviceId() });
      expect(stale.status).toBe(403);
      expect(await stale.json()).toMatchObject({ code: 'FRESH_SIGN_IN_REQUIRED' });
      // The same token still reads data: only the key needs the fresh sign-in.
      expect((await s.request('GET', A('/entities/User/me'), { token: coach.token })).status).toBe(200);
      expect((await invoke('deviceKey', (await s.signIn(coach.user)).token, { device_id: newDeviceId() })).status).toBe(200);
    } finally {
      s.clock.ms -= 5 * 60_000 + 1000;
    }
    const legacy = await invoke('deviceKey', s.tokens.coach, { device_id: newDeviceId() });
    expect(legacy.status).toBe(403);
    expect(await legacy.json()).toMatchObject({ code: 'FRESH_SIGN_IN_REQUIRED' });
  });

  it('refuses a missing or malformed device id with 400', async () => {
    const coach = await newCoach();
    for (const body of [{}, { device_id: 'short' }, { device_id: 'has spaces in it, no good' }, { device_id: 42 }, { device_id: 'x'.repeat(65) }]) {
      const res = await invoke('deviceKey', coach.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('keeps a device id to the user of its first release: another user gets 409 DEVICE_TAKEN', async () => {
    const [owner, other] = [await newCoach(), await newCoach()];
    const device = newDeviceId();
    await release(owner.token, device);
    const taken = await invoke('deviceKey', other.token, { device_id: device });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ code: 'DEVICE_TAKEN' });
    // …and the other user learns nothing of its state either.
    expect((await status(other.token, device)).body).toEqual({ status: 'unknown' });
  });

  it('releases at most 5 keys per device and 20 per user per 15 minutes (429 TOO_MANY_KEY_RELEASES), racing calls included', async () => {
    const s = server();
    const coach = await newCoach();
    const racer = `racer-device-${s.appId}-x`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => invoke('deviceKey', coach.token, { device_id: racer })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_KEY_RELEASES' });
    // Other tablets of the same coach are set up meanwhile, up to 20 releases in all.
    const others = await Promise.all(Array.from({ length: 17 }, () => invoke('deviceKey', coach.token, { device_id: newDeviceId() })));
    expect(others.map((r) => r.status).sort()).toEqual([...Array(15).fill(200), 429, 429]);
    s.clock.ms += 15 * 60_000 + 1000;
    try {
      expect((await invoke('deviceKey', (await s.signIn(coach.user)).token, { device_id: racer })).status).toBe(200);
    } finally {
      s.clock.ms -= 15 * 60_000 + 1000;
    }
  });

  it('stores keys wrapped, never raw, and shows them in no record, list, log line or app log', async () => {
    const s = server();
    const coach = await newCoach();
    const device = newDeviceId();
    const first = await release(coach.token, device);
    const second = await release(coach.token, device);
    const row = (await s.store.getDevice(s.appId, device))!;
    const stored = [Buffer.from(row.key_wrapped), Buffer.from(row.previous_wrapped!)];
    for (const key of [first.key, second.key]) {
      const raw = Buffer.from(key, 'base64');
      for (const bytes of stored) {
        expect(bytes.includes(raw)).toBe(false);
        expect(bytes.includes(raw.subarray(0, 16))).toBe(false);
      }
    }
    await s.request('POST', `/api/app-logs/${s.appId}/log-user-in-app/Dashboard`, { token: coach.token });
    const listed = await (await invoke('listDevices', (await s.signIn('admin')).token)).text();
    const seen = [
      listed,
      await (await s.request('GET', A('/entities/User'), { token: s.tokens.admin })).text(),
      await (await s.request('GET', A(`/entities/User/${coach.user.id}`), { token: s.tokens.admin })).text(),
      await (await s.request('GET', A('/entities/User/me'), { token: coach.token })).text(),
      await (await s.request('GET', `/api/app-logs/${s.appId}`, { token: s.tokens.admin })).text(),
      JSON.stringify(await s.store.getAuth(s.appId, coach.email)),
      s.logs.join('\n'),
    ];
    expect(listed).toContain(device);
    for (const text of seen) {
      for (const k of [first.key, second.key]) {
        expect(text).not.toContain(k);
        expect(text).not.toContain(Buffer.from(k, 'base64').toString('hex'));
      }
    }
  });

  it('tells a device its status: active, and after revokeDevice revoked in mode flush while its requests still work', async () => {
    const s = server();
    const admin = await s.signIn('admin');
    const coach = await newCoach();
    const device = newDeviceId();
    const { token } = await s.signIn(coach.user, { deviceId: device });
    expect((await status(token, device)).body).toEqual({ status: 'unknown' });
    await release(coach.token, device);
    expect(await status(token, device)).toEqual({ code: 200, body: { status: 'active' } });

    const revoke = await invoke('revokeDevice', admin.token, { device_id: device, reason: 'Tablet reported lost' });
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toEqual({ ok: true });
    const after = await status(token, device);
    expect(after.body).toMatchObject({ status: 'revoked', mode: 'flush', reason: 'Tablet reported lost' });
    expect(typeof after.body.revoked_date).toBe('string');
    // Flush: what waits may still be sent.
    expect((await s.request('GET', A('/entities/Participant'), { token })).status).toBe(200);
    expect((await s.request('POST', A('/entities/Participant'), { token, body: { first_name: 'Waiting', last_name: 'Change' } })).status).toBe(200);
    // No new key for a revoked device.
    const again = await invoke('deviceKey', (await s.signIn(coach.user)).token, { device_id: device });
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({ code: 'DEVICE_REVOKED', message: 'Tablet reported lost' });
    expect((await invoke('revokeDevice', admin.token, { device_id: newDeviceId() })).status).toBe(404);
  });

  it('revokeUser: the tablet\'s next request is 401 DEVICE_REVOKED with the reason, before any other check; every session ends', async () => {
    const s = server();
    const admin = await s.signIn('admin');
    const coach = await newCoach();
    const device = newDeviceId();
    const tablet = await s.signIn(coach.user, { deviceId: device });
    await release(tablet.token, device);
    const elsewhere = await s.signIn(coach.user); // a session without a device

    const res = await invoke('revokeUser', admin.token, { user_id: coach.user.id, reason: 'Left the programme' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, devices: 1 });

    for (const call of [
      s.request('GET', A('/entities/Participant'), { token: tablet.token }),
      invoke('deviceStatus', tablet.token, { device_id: device }),
      s.request('GET', A('/entities/User/me'), { token: tablet.token }),
    ]) {
      const refused = await call;
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'DEVICE_REVOKED', message: 'Left the programme' });
    }
    const other = await s.request('GET', A('/entities/User/me'), { token: elsewhere.token });
    expect(other.status).toBe(401);
    expect(await other.json()).toMatchObject({ code: 'SESSION_REVOKED' });
    // A sign-in after the revocation works (the account stays), but the revoked tablet id stays revoked.
    const fresh = await s.signIn(coach.user, { version: 1 });
    expect((await s.request('GET', A('/entities/User/me'), { token: fresh.token })).status).toBe(200);
    expect(await status(fresh.token, device)).toMatchObject({ body: { status: 'revoked', mode: 'erase', reason: 'Left the programme' } });
    const listed = (await (await invoke('listDevices', admin.token, { user_id: coach.user.id })).json()) as { devices: Array<Record<string, unknown>> };
    expect(listed.devices).toEqual([
      expect.objectContaining({ device_id: device, user_id: coach.user.id, user_email: coach.email, revoke_mode: 'erase', revoked_reason: 'Left the programme' }),
    ]);
    // Revoking a device already erased keeps the erase.
    await invoke('revokeDevice', admin.token, { device_id: device });
    expect((await s.store.getDevice(s.appId, device))?.revoke_mode).toBe('erase');
  });

  it('lists devices newest first with their users, and lets only administrators list or revoke', async () => {
    const s = server();
    const admin = await s.signIn('admin');
    const coach = await newCoach();
    const [d1, d2] = [newDeviceId(), newDeviceId()];
    await release(coach.token, d1);
    s.clock.ms += 1000;
    await release(coach.token, d2);
    const res = await invoke('listDevices', admin.token, { user_id: coach.user.id });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { devices } = (await res.json()) as { devices: Array<Record<string, unknown>> };
    expect(devices.map((d) => d.device_id)).toEqual([d2, d1]);
    expect(Object.keys(devices[0]).sort()).toEqual(
      ['created_date', 'device_id', 'last_release_date', 'last_seen_date', 'revoke_mode', 'revoked_date', 'revoked_reason', 'user_email', 'user_id', 'user_name'].sort(),
    );
    expect(devices[0]).toMatchObject({ user_email: coach.email, user_name: coach.user.full_name, revoked_date: null, revoke_mode: null });
    const all = (await (await invoke('listDevices', admin.token)).json()) as { devices: unknown[] };
    expect(all.devices.length).toBeGreaterThanOrEqual(2);

    for (const who of ['coach', 'pending'] as Who[]) {
      const { token } = await s.signIn(who);
      for (const [name, body] of [
        ['listDevices', {}],
        ['revokeDevice', { device_id: d1 }],
        ['revokeUser', { user_id: coach.user.id }],
      ] as const) {
        expect((await invoke(name, token, body)).status, `${who} ${name}`).toBe(403);
      }
    }
    expect((await invoke('listDevices', undefined)).status).toBe(401);
    expect((await status(coach.token, d1)).body).toEqual({ status: 'active' });
    // Nobody revokes themselves through revokeUser.
    const self = await invoke('revokeUser', admin.token, { user_id: s.users.admin.id });
    expect(self.status).toBe(403);
  });

  it('rotates every device key of the user on a password change, and the change ends the earlier tokens', async () => {
    const s = server();
    const coach = await newCoach(PASSWORD);
    const device = newDeviceId();
    const tablet = await s.signIn(coach.user, { deviceId: device });
    const before = await release(tablet.token, device);
    const storedBefore = (await s.store.getDevice(s.appId, device))!;

    const changed = await s.request('POST', A('/auth/change-password'), {
      token: tablet.token,
      body: { user_id: coach.user.id, current_password: PASSWORD, new_password: 'a-new-password-26' },
    });
    expect(changed.status).toBe(200);
    const { access_token: fresh } = (await changed.json()) as { access_token: string };
    const storedAfter = (await s.store.getDevice(s.appId, device))!;
    expect(Buffer.from(storedAfter.key_wrapped)).not.toEqual(Buffer.from(storedBefore.key_wrapped));
    expect(Buffer.from(storedAfter.previous_wrapped!)).toEqual(Buffer.from(storedBefore.key_wrapped));
    expect(storedAfter.key_released).toBe(false);

    const old = await s.request('GET', A('/entities/User/me'), { token: tablet.token });
    expect(old.status).toBe(401);
    expect((await s.request('GET', A('/entities/User/me'), { token: fresh })).status).toBe(200);
    // The fresh token keeps the device and is fresh: the next release hands back the key the
    // tablet holds as previous, and a new key.
    const after = await release(fresh, device);
    expect(after.previous).toBe(before.key);
    expect(after.key).not.toBe(before.key);
  });

  it('rotates every device key of the user on a password reset too', async () => {
    const s = server();
    const coach = await newCoach(PASSWORD);
    const device = newDeviceId();
    const before = await release(coach.token, device);
    s.clock.ms += 31_000; // past the mail throttle of earlier cases
    await s.request('POST', A('/auth/reset-password-request'), { body: { email: coach.email } });
    const mail = [...s.mails].reverse().find((m) => m.to === coach.email)!;
    const resetToken = decodeURIComponent(mail.text.match(/reset_token=(\S+)/)![1]);
    const reset = await s.request('POST', A('/auth/reset-password'), { body: { reset_token: resetToken, new_password: 'reset-pass-2026', device_id: device } });
    expect(reset.status).toBe(200);
    const { access_token: fresh } = (await reset.json()) as { access_token: string };
    expect((await s.request('GET', A('/entities/User/me'), { token: coach.token })).status).toBe(401);
    expect((await s.store.getDevice(s.appId, device))?.key_released).toBe(false); // rotated by the reset
    const after = await release(fresh, device);
    expect(after.previous).toBe(before.key);
    expect((await s.store.getDevice(s.appId, device))?.key_released).toBe(true);
  });

  it('answers 404 for any other function, another app, or another method', async () => {
    const s = server();
    const unknown = await invoke('deviceKeys', s.tokens.coach);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'No such function', code: 'NOT_FOUND' });
    expect((await invoke('toString', s.tokens.coach)).status).toBe(404);
    expect((await s.request('POST', '/api/apps/another-app/functions/deviceKey', { token: s.tokens.coach, body: {} })).status).toBe(404);
    const get = await s.request('GET', A('/functions/deviceKey'), { token: s.tokens.coach });
    expect(get.status).toBe(404);
    expect(await get.text()).not.toMatch(/"key"/);
  });
}
