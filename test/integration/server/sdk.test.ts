/**
 * The official client against a real listening server (random port on 127.0.0.1): what the
 * platform contract promises is what @base44/sdk actually gets, including its query encoding
 * (axios '+' for spaces) and its error class.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createClient } from '@base44/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createAccount } from '../../../server/auth/accounts';
import { newTestStore, type TestStore } from '../../support/test-databases';
import type { Store } from '../../../server/store/types';

const APP = 'passage';
const PASSWORD = 'sdk-pass-2026';
let opened: TestStore;
let store: Store;
let server: ServerType;
let serverUrl: string;

beforeAll(async () => {
  process.env.NODE_ENV = 'production'; // the SDK logs every error otherwise
  opened = await newTestStore();
  store = opened.store;
  await createAccount(store, APP, { email: 'admin@example.org', password: PASSWORD, role: 'admin', verified: true, fields: { approved: true } });
  await createAccount(store, APP, {
    email: 'coach@example.org',
    password: PASSWORD,
    full_name: 'Jordan Ellis',
    role: 'user',
    verified: true,
    fields: { approved: true, requested_access_date: '2026-01-05' },
  });
  const app = createApp({ store, appId: APP, jwtSecret: 'sdk-test-secret-0123456789abcdef', log: () => undefined });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await opened.close();
});

async function signedIn(email: string) {
  const anonymous = createClient({ serverUrl, appId: APP, analytics: { enabled: false } } as Parameters<typeof createClient>[0]);
  const { access_token, user } = await anonymous.auth.loginViaEmailPassword(email, PASSWORD);
  expect(user.email).toBe(email);
  return createClient({ serverUrl, appId: APP, token: access_token, analytics: { enabled: false } } as Parameters<typeof createClient>[0]);
}

describe('@base44/sdk against the server', () => {
  it('signs in and reads and updates the current user', async () => {
    const client = await signedIn('coach@example.org');
    const me = await client.auth.me();
    expect(me).toMatchObject({ email: 'coach@example.org', role: 'user', full_name: 'Jordan Ellis' });
    const updated = await client.auth.updateMe({ bio: 'Carpenter and coach', role: 'admin' });
    expect(updated).toMatchObject({ bio: 'Carpenter and coach', role: 'user' });
  });

  it('creates, gets, filters, lists, updates and bulk-creates entities', async () => {
    const client = await signedIn('coach@example.org');
    const Participant = client.entities.Participant;
    const ana = await Participant.create({ first_name: 'Ana Maria', last_name: 'Diaz', custody_status: 'in-custody' });
    expect(ana.id).toBeTruthy();
    expect(await Participant.get(ana.id)).toMatchObject({ first_name: 'Ana Maria' });
    const more = await Participant.bulkCreate([
      { first_name: 'Bo', last_name: 'Lee', custody_status: 'released' },
      { first_name: 'Cy', last_name: 'Ortiz', custody_status: 'in-custody' },
    ]);
    expect(more).toHaveLength(2);
    // A space in a filter value travels as '+'.
    expect((await Participant.filter({ first_name: 'Ana Maria' })).map((p: any) => p.id)).toEqual([ana.id]);
    const inside = await Participant.filter({ custody_status: 'in-custody' }, 'last_name');
    expect(inside.map((p: any) => p.last_name)).toEqual(['Diaz', 'Ortiz']);
    const newest = await Participant.list('-created_date', 2, 0, ['first_name']);
    expect(newest.map((p: any) => p.first_name)).toEqual(['Cy', 'Bo']);
    expect(Object.keys(newest[0]).sort()).toEqual(['first_name', 'id']);
    expect((await Participant.list('+first_name')).map((p: any) => p.first_name)).toEqual(['Ana Maria', 'Bo', 'Cy']);
    const moved = await Participant.update(ana.id, { custody_status: 'released' });
    expect(moved).toMatchObject({ first_name: 'Ana Maria', custody_status: 'released' });
    expect(await Participant.count({ custody_status: 'released' })).toBe(2);
    const page = (await Participant.list({ limit: 2, sort: 'created_date' } as any)) as any;
    expect(page.items).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const rest = (await Participant.list({ limit: 2, cursor: page.next_cursor } as any)) as any;
    expect(rest.items.map((p: any) => p.first_name)).toEqual(['Cy']);
  });

  it('reports refusals as Base44Error with status, message and code', async () => {
    const coach = await signedIn('coach@example.org');
    const site = await (await signedIn('admin@example.org')).entities.Site.create({ site_name: 'Camp 9', site_type: 'fire_camp' });
    const denied = await coach.entities.Site.delete(site.id).catch((e: unknown) => e);
    expect(denied).toMatchObject({ name: 'Base44Error', status: 403, code: 'FORBIDDEN' });
    const invalid = await coach.entities.Participant.create({ last_name: 'X' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', message: 'first_name is required' });
    const wrong = await createClient({ serverUrl, appId: APP, analytics: { enabled: false } } as any)
      .auth.loginViaEmailPassword('coach@example.org', 'not-the-password')
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
  });

  it('deletes as admin and logs page views', async () => {
    const admin = await signedIn('admin@example.org');
    const program = await admin.entities.Program.create({ program_name: 'Welding', active: true });
    expect(await admin.entities.Program.delete(program.id)).toEqual({ success: true });
    expect(await admin.entities.Program.list()).toEqual([]);
    const coach = await signedIn('coach@example.org');
    await coach.appLogs.logUserInApp('Participant Detail');
    const logs = await store.listLogs(APP, { limit: 5 });
    expect(logs[0]).toMatchObject({ page: 'Participant Detail', user_email: 'coach@example.org' });
  });
});
