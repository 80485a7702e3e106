/**
 * The measured requests, sent through the whole HTTP app (createApp: routing, auth, validation,
 * JSON) in-process via app.request, so the numbers are server cost without network noise.
 */
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../server/app';
import { createAccount } from '../../../server/auth/accounts';
import { issueToken, secretKey } from '../../../server/auth/tokens';
import type { Store } from '../../../server/store/types';
import { type Measurement, measure } from './measure';
import type { Seeded } from './seed';

export interface ScenarioOptions {
  concurrency: number;
}

export async function runHttpScenarios(store: Store, app: string, data: Seeded, opts: ScenarioOptions): Promise<Measurement[]> {
  const secret = randomUUID();
  const { user } = await createAccount(store, app, {
    email: 'bench-admin@example.org', role: 'admin', verified: true, fields: { approved: true },
  });
  const token = await issueToken(secretKey(secret), user.id, app, new Date());
  const http = createApp({ store, appId: app, jwtSecret: secret, log: () => {} });
  const base = `/api/apps/${app}/entities`;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await http.request(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
    return json;
  }
  const q = (query: unknown) => encodeURIComponent(JSON.stringify(query));
  const { participants, enrollments } = data;
  const nth = <T>(xs: T[], i: number) => xs[(i * 7919) % xs.length]; // spread over the data set
  const c = opts.concurrency;
  const mid = enrollments[Math.floor(enrollments.length * 0.9)].updated_date;
  const out: Measurement[] = [];

  out.push(await measure('list Participant limit=5000', 8, c, async () => {
    const rows = (await call('GET', '/Participant?limit=5000')) as unknown[];
    if (rows.length !== 5000) throw new Error(`list returned ${rows.length}`);
  }));
  out.push(await measure('list Enrollment fields=id (reconcile)', 8, c, async () => {
    await call('GET', '/Enrollment?limit=5000&fields=id');
  }));
  out.push(await measure('filter Enrollment by participant_id', 300, c, async (i) => {
    const rows = (await call('GET', `/Enrollment?q=${q({ participant_id: nth(participants, i).id })}`)) as unknown[];
    if (rows.length !== 3) throw new Error(`filter returned ${rows.length}`);
  }));
  // 400 ids: the HTTP layer refuses filters of more than 500 nodes (server/http/filter-check.ts).
  out.push(await measure('filter Enrollment $in 400 participant ids', 20, c, async (i) => {
    const ids = Array.from({ length: 400 }, (_, k) => nth(participants, i * 400 + k).id);
    const rows = (await call('GET', `/Enrollment?q=${q({ participant_id: { $in: ids } })}`)) as unknown[];
    if (rows.length === 0) throw new Error('$in returned nothing');
  }));
  out.push(await measure('pull Enrollment updated_date>=cursor, 500', 40, c, async () => {
    await call('GET', `/Enrollment?q=${q({ updated_date: { $gte: mid } })}&sort=updated_date&limit=500`);
  }));
  out.push(await measure('get Participant', 300, c, async (i) => {
    await call('GET', `/Participant/${nth(participants, i).id}`);
  }));
  out.push(await measure('create Participant', 200, c, async (i) => {
    await call('POST', '/Participant', { first_name: 'Bench', last_name: `Create ${i}`, program_status: 'active', client_ref: randomUUID() });
  }));
  out.push(await measure('update Participant', 200, c, async (i) => {
    await call('PUT', `/Participant/${nth(participants, i).id}`, { phone: `(510) 555-${String(i).padStart(4, '0')}` });
  }));
  return out;
}
