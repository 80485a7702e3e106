import { describe, expect, it } from 'vitest';
import { makeDevice } from '../../support/device';
import { cacheCurrentUser, clearLocalData, getCachedUser, otherUsersWithPendingOps, pendingCountFor } from '../../../src/data/session';
import { createParticipant } from '../../../src/data/commands/participants';

describe('S11 identity (session)', () => {
  it('caches the signed-in user so the app can start offline', async () => {
    const { data, db } = makeDevice();
    expect(await getCachedUser(data)).toBeNull();
    await cacheCurrentUser(data, { id: 'u1', email: 'coach@example.org', role: 'user' });
    expect(await getCachedUser(data)).toMatchObject({ id: 'u1', email: 'coach@example.org' });
    expect(await db.users.get('u1')).toMatchObject({ email: 'coach@example.org' });
  });

  it('counts pending ops per user and names other users that still have some', async () => {
    const { data } = makeDevice({ userId: 'u1' });
    await createParticipant(data, { first_name: 'A', last_name: 'B' });
    await createParticipant(data, { first_name: 'C', last_name: 'D' });
    data.userId = 'u2';
    await createParticipant(data, { first_name: 'E', last_name: 'F' });
    expect(await pendingCountFor(data, 'u1')).toBe(2);
    expect(await pendingCountFor(data, 'u2')).toBe(1);
    expect(await otherUsersWithPendingOps(data, 'u2')).toEqual(['u1']);
  });

  it('clearLocalData wipes the mirror, outbox, conflicts, aliases, sync state and cached user', async () => {
    const { data, db } = makeDevice();
    await cacheCurrentUser(data, { id: 'u1', email: 'a@b.c' });
    await createParticipant(data, { first_name: 'A', last_name: 'B' });
    await db.conflicts.add({ entity: 'Participant', record_id: 'p', field: 'f', local_value: 1, server_value: 2, server_updated_date: null, detected_at: 0, status: 'open', kind: 'field' });
    await db.aliases.put({ temp_id: 'local-1', entity: 'Participant', server_id: 'p' });
    await db.syncState.put({ entity: 'Participant', cursor: 'x', last_pulled_at: 1, last_reconciled_at: 1 });
    await clearLocalData(data);
    for (const t of db.tables) expect(await t.count()).toBe(0);
    expect(await getCachedUser(data)).toBeNull();
  });
});
