/**
 * Issue #25.4's rows: searches over 20,000 participants (the bench's 10,000 plus 10,000 more):
 * the hostile pattern (refused by the cost budget), the costliest pattern the budget allows, and an
 * ordinary page requested while that pattern runs. Through the HTTP app, in-process.
 */
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../server/app';
import { createAccount } from '../../../server/auth/accounts';
import { issueToken, secretKey } from '../../../server/auth/tokens';
import type { Store } from '../../../server/store/types';
import { HOSTILE, WORST_ALLOWED, seedParticipants } from '../../support/regex-load';
import { type Measurement, measure } from './measure';

export async function runRegexScenarios(store: Store, app: string, extraParticipants: number): Promise<Measurement[]> {
  if (extraParticipants > 0) await seedParticipants(store, app, extraParticipants);
  const secret = randomUUID();
  const { user } = await createAccount(store, app, { email: 'regex-admin@example.org', role: 'admin', verified: true, fields: { approved: true } });
  const token = await issueToken(secretKey(secret), user.id, app, new Date());
  const http = createApp({ store, appId: app, jwtSecret: secret, log: () => {} });
  const get = async (path: string, expect: number) => {
    const res = await http.request(`/api/apps/${app}/entities/Participant${path}`, { headers: { Authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== expect) throw new Error(`${path} → ${res.status}, expected ${expect}`);
  };
  const q = (filter: unknown) => `?limit=50&q=${encodeURIComponent(JSON.stringify(filter))}`;
  const rows: Measurement[] = [];
  rows.push(await measure('regex: hostile .{100}×20 → 400, 12 at once', 12, 12, () => get(q({ first_name: { $regex: HOSTILE } }), 400)));
  rows.push(await measure('regex: costliest allowed (.{0,2}×15 x, i)', 5, 1, () => get(q({ last_name: { $regex: WORST_ALLOWED, $options: 'i' } }), 200)));
  rows.push(await measure('regex: ordinary page while the costliest runs', 5, 1, async () => {
    const slow = get(q({ last_name: { $regex: WORST_ALLOWED, $options: 'i' } }), 200);
    await new Promise((r) => setTimeout(r, 10));
    await get('?limit=20&sort=-updated_date', 200);
    await slow;
  }));
  rows.push(await measure('regex: partial name, any case', 20, 1, () => get(q({ first_name: { $regex: 'arl', $options: 'i' } }), 200)));
  return rows;
}
