import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { accessState } from '../../../shared/access-state';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../../server/demo/accounts';
import { seedDemo } from '../../../server/demo/seed';
import { createStore } from '../../../server/store/index';
import type { Store } from '../../../server/store/types';

const APP = 'passage';
const now = new Date('2026-11-22T10:00:00Z');
let store: Store;
beforeAll(async () => {
  store = await createStore({ dataDir: 'memory://' });
});
afterAll(() => store.close());

describe('demo seed', () => {
  it('fills an empty app once, through the store', async () => {
    const first = await seedDemo(store, APP, { now });
    expect(first.seeded).toBe(true);
    expect(first.counts).toMatchObject({ User: 5, Program: 3, Site: 4, Cohort: 6, Participant: 40 });
    expect(await seedDemo(store, APP, { now })).toEqual({ seeded: false, counts: {} });
    expect(await store.count(APP, 'Participant')).toBe(40);
    const participants = await store.list(APP, 'Participant', { sort: 'updated_date' });
    const stamps = participants.map((p) => p.updated_date);
    expect(new Set(stamps).size).toBe(stamps.length); // strictly increasing per entity
  });

  it('has one account per access state, all signing in with the demo password', async () => {
    const app = createApp({ store, appId: APP, jwtSecret: 'demo-seed-test-secret-0123456789ab', now: () => now, log: () => undefined });
    const states: Record<string, string> = {};
    for (const account of DEMO_ACCOUNTS) {
      const res = await app.request('/api/apps/passage/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: DEMO_PASSWORD }),
      });
      expect(res.status, account.email).toBe(200);
      const { user } = (await res.json()) as { user: { id: string; role?: string; approved?: boolean; requested_access_date?: string } };
      states[account.email] = accessState(user);
    }
    expect(states).toEqual({
      'admin@example.org': 'admin',
      'coach@example.org': 'coach',
      'newcoach@example.org': 'no_profile',
      'pending@example.org': 'pending',
      'rejected@example.org': 'rejected',
    });
  });

  it('has cohorts with future sessions and enrollments in every status', async () => {
    const sessions = await store.list(APP, 'Session', { q: { scheduled_at: { $gt: now.toISOString() } } });
    expect(sessions.length).toBeGreaterThan(5);
    const statuses = new Set((await store.list(APP, 'Enrollment', {})).map((e) => e.enrollment_status));
    expect(statuses).toEqual(new Set(['active', 'waitlist', 'withdrawn', 'graduated']));
    const sites = await store.list(APP, 'Site', {});
    expect(new Set(sites.map((s) => s.site_type))).toEqual(new Set(['prison', 'juvenile', 'fire_camp', 'community']));
    const releasing = await store.count(APP, 'Participant', {
      custody_status: 'in-custody',
      projected_release_date: { $gte: '2026-11-22', $lte: '2027-01-21' },
    });
    expect(releasing).toBeGreaterThanOrEqual(3);
  });
});
