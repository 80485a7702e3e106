/**
 * Issue #26 (docs/design.md S19): the audit trail through HTTP — each kind of event with its
 * fields, the tablet's headers, and AuditEvent as a read-only, administrators-only entity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEditTimes } from '../../../shared/audit';
import type { EntityRecord } from '../../../server/store/types';
import { APP, E, PASSWORD, newDeviceId, startTestServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ withPasswords: true });
});
afterAll(() => s.close());

const json = async <T = Record<string, unknown>>(res: Response): Promise<T> => (await res.json()) as T;
/** The newest events, newest first, as an administrator reads them. */
async function latest(q: Record<string, unknown> = {}, limit = 20): Promise<EntityRecord[]> {
  const res = await s.request('GET', `${E('AuditEvent')}?q=${encodeURIComponent(JSON.stringify(q))}&sort=-created_date&limit=${limit}`, { token: s.tokens.admin });
  expect(res.status).toBe(200);
  return json<EntityRecord[]>(res);
}
const login = (email: string, password: string, deviceId?: string) =>
  s.request('POST', `/api/apps/${APP}/auth/login`, { body: { email, password, ...(deviceId ? { device_id: deviceId } : {}) } });

describe('S19 audit events through HTTP', () => {
  it('records a coach’s offline edit with its tablet time and device, apart from its arrival', async () => {
    const deviceId = newDeviceId();
    const { token } = await s.signIn('coach', { deviceId });
    const created = await json(await s.request('POST', E('Participant'), {
      token,
      body: { first_name: 'Ana', last_name: 'Diaz', custody_status: 'in-custody' },
      headers: { 'X-Passage-Edit-Times': encodeEditTimes(['2026-11-21T18:05:00.000Z']) },
    }));
    s.clock.ms += 60_000;
    await s.request('PUT', E('Participant', `/${created.id}`), {
      token,
      body: { custody_status: 'released' },
      headers: { 'X-Passage-Edit-Times': 'not%20json' }, // malformed: ignored, the write goes through
    });
    const [update, create] = await latest({ record_id: created.id });
    expect(create).toMatchObject({
      action: 'create', entity: 'Participant', outcome: 'success', actor_id: s.users.coach.id, actor_email: 'coach@example.org',
      device_id: deviceId, client_time: '2026-11-21T18:05:00.000Z', created_date: '2026-11-22T09:00:00.000Z',
    });
    expect(update).toMatchObject({ action: 'update', client_time: null, changes: { custody_status: { old: 'in-custody', new: 'released' } }, created_date: '2026-11-22T09:01:00.000Z' });
    expect(typeof update.address).toBe('string');
  });

  it('aligns a bulk request’s edit times with its records and marks a conflict resolution', async () => {
    const rows = await json<EntityRecord[]>(await s.request('POST', E('Participant', '/bulk'), {
      token: s.tokens.coach,
      body: [{ first_name: 'B', last_name: '1' }, { first_name: 'C', last_name: '2' }],
      headers: { 'X-Passage-Edit-Times': encodeEditTimes([null, '2026-11-20T07:00:00+02:00']) },
    }));
    const events = await latest({ record_id: { $in: rows.map((r) => r.id) } });
    expect(events.map((e) => [e.record_id, e.client_time])).toEqual([[rows[1].id, '2026-11-20T05:00:00.000Z'], [rows[0].id, null]]);
    await s.request('PUT', E('Participant', '/bulk'), { token: s.tokens.coach, body: [{ id: rows[0].id, phone: '555-0101' }], headers: { 'X-Passage-Resolves-Conflict': '1' } });
    expect((await latest({ record_id: rows[0].id }, 1))[0]).toMatchObject({ action: 'resolve_conflict', changes: { phone: { old: null, new: '555-0101' } } });
  });

  it('leaves no event when a bulk create is refused', async () => {
    const before = await json<{ count: number }>(await s.request('GET', E('AuditEvent', '/count'), { token: s.tokens.admin }));
    const res = await s.request('POST', E('Participant', '/bulk'), { token: s.tokens.coach, body: [{ first_name: 'Ok', last_name: 'Fine' }, { first_name: 42 }] });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await json(await s.request('GET', E('AuditEvent', '/count'), { token: s.tokens.admin }))).toEqual(before);
  });

  it('records sign-in, failures, the lockout and password changes', async () => {
    const deviceId = newDeviceId();
    expect((await login('coach@example.org', PASSWORD, deviceId)).status).toBe(200);
    expect((await latest({ action: 'sign_in' }, 1))[0]).toMatchObject({ actor_id: s.users.coach.id, actor_email: 'coach@example.org', device_id: deviceId, outcome: 'success' });
    for (let i = 0; i < 5; i++) await login('pending@example.org', 'wrong-password');
    const failures = await latest({ actor_email: 'pending@example.org' });
    expect(failures.filter((e) => e.action === 'sign_in_failed')).toHaveLength(5);
    expect(failures[0]).toMatchObject({ action: 'lockout', outcome: 'failure', actor_id: s.users.pending.id, reason: expect.stringMatching(/^Locked until /) });
    expect((await login('pending@example.org', PASSWORD)).status).toBe(429);
    expect((await latest({ actor_email: 'pending@example.org' }, 1))[0]).toMatchObject({ action: 'sign_in_failed', reason: 'ACCOUNT_LOCKED' });
    await login('nobody@example.org', 'whatever-pass');
    expect((await latest({ actor_email: 'nobody@example.org' }, 1))[0]).toMatchObject({ action: 'sign_in_failed', actor_id: null, reason: 'INVALID_CREDENTIALS' });

    const { token } = await s.signIn('noProfile');
    const change = (current: string) =>
      s.request('POST', `/api/apps/${APP}/auth/change-password`, { token, body: { user_id: s.users.noProfile.id, current_password: current, new_password: 'a-new-password-7' } });
    expect((await change('not-the-password')).status).toBe(400);
    expect((await change(PASSWORD)).status).toBe(200);
    const [ok, failed] = await latest({ actor_id: s.users.noProfile.id, action: 'password_change' });
    expect(ok).toMatchObject({ outcome: 'success' });
    expect(failed).toMatchObject({ outcome: 'failure', reason: 'INVALID_CREDENTIALS' });
  });

  it('records sign-up and a password reset', async () => {
    expect((await s.request('POST', `/api/apps/${APP}/auth/register`, { body: { email: 'newcoach@example.org', password: 'long-enough-pass-1', full_name: 'New Coach' } })).status).toBe(200);
    const events = await latest({ actor_email: 'newcoach@example.org' });
    expect(events[0]).toMatchObject({ action: 'sign_up', outcome: 'success', actor_id: expect.any(String) });
    expect((await latest({ record_id: events[0].actor_id }))[0]).toMatchObject({ action: 'create', entity: 'User', changes: { email: { old: null, new: 'newcoach@example.org' } } });

    expect((await s.request('POST', `/api/apps/${APP}/auth/reset-password`, { body: { reset_token: 'bogus', new_password: 'long-enough-pass-2' } })).status).toBe(400);
    expect((await latest({ action: 'password_reset' }, 1))[0]).toMatchObject({ outcome: 'failure', reason: 'INVALID_RESET_TOKEN' });
    await s.request('POST', `/api/apps/${APP}/auth/reset-password-request`, { body: { email: 'rejected@example.org' } });
    const mail = s.mails.find((m) => m.to === 'rejected@example.org');
    const token = /code on the sign-in page: (\S+)/.exec(mail?.text ?? '')?.[1] ?? /reset_token=([^\s&]+)/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeTruthy();
    const reset = await s.request('POST', `/api/apps/${APP}/auth/reset-password`, { body: { reset_token: decodeURIComponent(token!), new_password: 'long-enough-pass-3' } });
    expect(reset.status).toBe(200);
    expect((await latest({ action: 'password_reset' }, 1))[0]).toMatchObject({ outcome: 'success', actor_id: s.users.rejected.id });
  });

  it('records approvals, rejections and role changes by an administrator', async () => {
    const put = (body: Record<string, unknown>) => s.request('PUT', E('User', `/${s.users.pending.id}`), { token: s.tokens.admin, body });
    await put({ approved: true, approval_date: '2026-11-22', approved_by: 'admin@example.org' });
    await put({ role: 'admin' });
    await put({ role: 'guest', approved: false });
    const events = await latest({ record_id: s.users.pending.id, entity: 'User' }, 3);
    expect(events.map((e) => e.action)).toEqual(['reject', 'role_change', 'approve']);
    expect(events[2]).toMatchObject({ actor_id: s.users.admin.id, actor_email: 'admin@example.org', changes: { approved: { old: false, new: true } } });
  });

  it('records device key releases, revocations and the erasure a tablet is told to carry out', async () => {
    const deviceId = newDeviceId();
    const { token } = await s.signIn('coach', { deviceId });
    expect((await s.request('POST', `/api/apps/${APP}/functions/deviceKey`, { token, body: { device_id: deviceId } })).status).toBe(200);
    expect((await latest({ action: 'device_key_release' }, 1))[0]).toMatchObject({ record_id: deviceId, device_id: deviceId, actor_id: s.users.coach.id, outcome: 'success' });
    expect((await s.request('POST', `/api/apps/${APP}/functions/revokeDevice`, { token: s.tokens.admin, body: { device_id: deviceId, reason: 'Lost on the bus' } })).status).toBe(200);
    expect((await latest({ action: 'device_revoke' }, 1))[0]).toMatchObject({ record_id: deviceId, actor_id: s.users.admin.id, reason: 'Lost on the bus', changes: { mode: 'flush' } });
    for (let i = 0; i < 2; i++) {
      const status = await json(await s.request('POST', `/api/apps/${APP}/functions/deviceStatus`, { token, body: { device_id: deviceId } }));
      expect(status.status).toBe('revoked');
    }
    const erasures = await latest({ action: 'device_erase', record_id: deviceId });
    expect(erasures).toHaveLength(1);
    expect(erasures[0]).toMatchObject({ actor_id: s.users.coach.id, device_id: deviceId, reason: 'erases its copy once its queued changes are sent' });
  });

  it('records exports: any approved user their own, administrators the audit trail’s', async () => {
    const report = (token: string, body: unknown) => s.request('POST', `/api/apps/${APP}/functions/auditExport`, { token, body });
    expect(await json(await report(s.tokens.coach, { kind: 'participants', row_count: 120, filters: { site: 'North' }, exported_at: '2026-11-22T08:59:00Z' }))).toEqual({ ok: true });
    expect((await latest({ action: 'export' }, 1))[0]).toMatchObject({
      actor_id: s.users.coach.id, client_time: '2026-11-22T08:59:00.000Z', changes: { kind: 'participants', row_count: 120, filters: { site: 'North' } },
    });
    expect((await report(s.tokens.coach, { kind: 'audit', row_count: 5 })).status).toBe(403);
    expect((await report(s.tokens.pending, { kind: 'participants', row_count: 1 })).status).toBe(403);
    expect((await report(s.tokens.coach, { kind: 'participants', row_count: -1 })).status).toBe(400);
    expect((await report(s.tokens.admin, { kind: 'audit', row_count: 5 })).status).toBe(200);
    expect((await latest({ action: 'export' }, 1))[0]).toMatchObject({ entity: 'AuditEvent', actor_id: s.users.admin.id });
  });

  it('serves AuditEvent read-only to administrators: v2 pages, get by id, 405 on writes, 403 to coaches', async () => {
    const first = await json<{ items: EntityRecord[]; next_cursor: string | null; has_more: boolean }>(await s.request('GET', E('AuditEvent', '/v2/list?limit=2&sort=-created_date'), { token: s.tokens.admin }));
    expect(first.items).toHaveLength(2);
    expect(first.has_more).toBe(true);
    expect(first.items[0].seq).toBe((first.items[1].seq as number) + 1);
    const next = await json<{ items: EntityRecord[] }>(await s.request('GET', E('AuditEvent', `/v2/list?limit=2&sort=-created_date&cursor=${first.next_cursor}`), { token: s.tokens.admin }));
    expect(next.items[0].seq).toBe((first.items[1].seq as number) - 1);
    const one = await json(await s.request('GET', E('AuditEvent', `/${first.items[0].id}`), { token: s.tokens.admin }));
    expect(one).toMatchObject({ id: first.items[0].id, hash: expect.stringMatching(/^[0-9a-f]{64}$/), prev_hash: first.items[1].hash });
    for (const [method, path] of [['POST', ''], ['POST', '/bulk'], ['PUT', `/${first.items[0].id}`], ['DELETE', `/${first.items[0].id}`]] as const) {
      const res = await s.request(method, E('AuditEvent', path), { token: s.tokens.admin, body: method === 'DELETE' ? undefined : {} });
      expect([method, path, res.status, (await json(res)).code]).toEqual([method, path, 405, 'METHOD_NOT_ALLOWED']);
    }
    expect((await s.request('GET', E('AuditEvent'), { token: s.tokens.coach })).status).toBe(403);
    expect((await s.request('GET', E('AuditEvent'))).status).toBe(401);
  });
});
