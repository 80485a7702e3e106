import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore } from '../../../server/store';

const dir = mkdtempSync(join(tmpdir(), 'passage-store-'));
// This file's new database runs initdb, as a first start does: not the run's template
// (test/support/pglite-template.ts), which every other store starts from.
const template = process.env.PGLITE_TEMPLATE;
beforeAll(() => {
  delete process.env.PGLITE_TEMPLATE;
});
afterAll(() => {
  if (template !== undefined) process.env.PGLITE_TEMPLATE = template;
  rmSync(dir, { recursive: true, force: true });
});

it('PGlite keeps records, auth and logs in its data directory across a clean close and reopen', async () => {
  const meta = { by: 'admin@example.org', byId: 'u-admin' };
  const first = await createStore({ dataDir: join(dir, 'data') });
  // A second server on the same directory would corrupt it: refused while the first is open.
  await expect(createStore({ dataDir: join(dir, 'data') })).rejects.toThrow(/already open/);
  const ana = await first.create('passage', 'Participant', { full_name: 'Ana Diaz' }, meta);
  const updated = await first.update('passage', 'Participant', ana.id, { phone: '555-0100' });
  await first.putAuth('passage', 'admin@example.org', { user_id: 'u-admin', email: 'admin@example.org', password_hash: 'x' });
  await first.appendLog('passage', { page: 'Participants', user_id: 'u-admin', user_email: 'admin@example.org' });
  await first.close();

  // Reopened with a clock stuck in 1970: only the persisted clock row can keep updated_date growing.
  const second = await createStore({ dataDir: join(dir, 'data'), now: () => 0 });
  try {
    expect(await second.get('passage', 'Participant', ana.id)).toEqual(updated);
    expect(await second.getAuth('passage', 'admin@example.org')).toMatchObject({ password_hash: 'x' });
    expect((await second.listLogs('passage', {})).map((l) => l.page)).toEqual(['Participants']);
    const next = await second.update('passage', 'Participant', ana.id, { phone: '555-0101' });
    expect(next!.updated_date > updated!.updated_date).toBe(true);
  } finally {
    await second.close();
  }
  // Two PGlite start-ups on disk (initdb, then recovery) take 15–20 s on a busy 2-core machine.
}, 120_000);
