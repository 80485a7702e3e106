import { beforeEach, describe, expect, it, vi } from 'vitest';
import { opens } from '../data/counted-cipher';
import { makeDevice } from '../../support/device';
import { createParticipant } from '../../../src/data/commands/participants';
import { createCohort } from '../../../src/data/commands/cohorts';
import type { DataContext } from '../../../src/data/context';
import { readSyncStatus } from '../../../src/data/queries/sync-status';
import { applyCreatedMany, inAllTables } from '../../../src/data/sync/mirror-writes';
import type { OutboxOp, PassageDB } from '../../../src/data/db';

// Every record opened (unsealed) is counted.
vi.mock('../../../src/data/vault/cipher', async (importOriginal) => (await import('../data/counted-cipher')).countingCipher(importOriginal));

/**
 * 1,000 changes made offline: the header's status and each answered batch of the push must not
 * unseal the whole queue again (the push of 1,000 ops after reconnect took 6–9 s, most of it that).
 */
let data: DataContext;
let db: PassageDB;

async function queue(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await createParticipant(data, { first_name: 'Queued', last_name: `P${i}` });
}

beforeEach(() => {
  ({ data, db } = makeDevice({ userId: 'user-1' }));
});

describe('the outbox read without unsealing it', () => {
  it("the sync status counts this user's and another user's queued ops, and opens only rejected ones", async () => {
    await queue(200);
    const ops = await db.outbox.toArray();
    await db.outbox.bulkPut([
      { ...ops[0], state: 'rejected', last_error: { status: 422, message: 'first_name is required' } },
      { ...ops[1], user_id: 'user-2' },
      { ...ops[2], user_id: 'user-2' },
    ]);
    opens.count = 0;
    const status = await readSyncStatus(data);
    expect(status.pending).toBe(198);
    expect(status.otherUserPending).toBe(2);
    expect(status.rejected.map((o) => o.seq)).toEqual([ops[0].seq]);
    expect(status.rejected[0].data).toMatchObject({ first_name: 'Queued', last_name: 'P0' });
    expect(opens.count).toBeLessThanOrEqual(2); // the rejected op (and the cached signed-in user)
  });

  it('an answered batch of creates opens the ops it can change, not the rest of the queue', async () => {
    await queue(300);
    // A cohort created offline too: unrelated to participants, never opened by their batch.
    await createCohort(data, { cohort_code: 'C-1', program_id: 'prog-1', site_id: 'site-1' });
    const first = (await db.outbox.orderBy('seq').limit(100).toArray()) as OutboxOp[];
    const created = first.map((op, i) => ({ op, server: { ...op.data, id: `srv-${i}`, created_date: '2026-01-15T12:00:00.000Z', updated_date: '2026-01-15T12:00:00.000Z' } }));
    opens.count = 0;
    await inAllTables(db, () => applyCreatedMany(db, created));
    expect(await db.outbox.count()).toBe(201);
    expect(await db.participants.get('srv-7')).toMatchObject({ first_name: 'Queued', last_name: 'P7' });
    // Before: the whole queue (201 ops) was opened for every batch.
    expect(opens.count).toBeLessThan(20);
  });
});
