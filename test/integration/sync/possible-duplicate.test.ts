import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformTransport } from '../../../src/data/sync/platform-transport';
import { createParticipant } from '../../../src/data/commands/participants';
import { markDifferentPerson } from '../../../src/data/commands/possible-duplicate';
import { makeDevice } from '../../support/device';
import { FakeClock } from '../../support/fake-clock';
import { startSyncServer, type SyncServer } from './sync-server';

/**
 * Issue #23.7 with the real server: a create repeating a CDCR number the server holds is a
 * rejected op the Sync page can review (S8), never a silent second record; "This is a different
 * person" records the held id on the create and it goes through.
 */
let server: SyncServer;
let n = 0;
beforeAll(async () => {
  server = await startSyncServer();
});
afterAll(async () => {
  await server.close();
});

function device() {
  const transport = createPlatformTransport(server.client('coach'), server.coach.id);
  return makeDevice({ name: `dup-${n++}`, userId: server.coach.id, clock: new FakeClock(Date.now()), transport });
}

describe('a possible duplicate reaches the Sync page, not the server (issue #23.7)', () => {
  it('S8: the create is rejected naming the held record; marked a different person, it is saved with that decision', async () => {
    const held = await server.client('admin').entities('Participant').create({ first_name: 'Ana', last_name: 'Ruiz', cdcr_number: 'AB-1234', academy_uid: 'U-77' });
    const d = device();
    const mine = await createParticipant(d.data, { first_name: 'Ann', last_name: 'Ruis', cdcr_number: 'ab 1234' });
    const fine = await createParticipant(d.data, { first_name: 'Other', last_name: 'Person', cdcr_number: 'ZZ-9' });
    await d.engine.start();
    await d.settle();

    // The bulk was refused as a whole; sent one by one, the other create went through.
    const onServer = async () => (await server.rows('Participant')).filter((r) => r.client_ref === mine.client_ref || r.client_ref === fine.client_ref);
    expect((await onServer()).map((r) => r.first_name)).toEqual(['Other']);
    const [op] = await d.db.outbox.toArray();
    expect(op).toMatchObject({
      state: 'rejected',
      record_id: mine.id,
      last_error: { status: 409, code: 'POSSIBLE_DUPLICATE', duplicate_ids: [held.id] },
    });
    expect(op.last_error?.message).toContain('UID U-77');

    await markDifferentPerson(d.data, op.seq!);
    await d.settle();
    const saved = (await onServer()).find((r) => r.client_ref === mine.client_ref);
    expect(saved).toMatchObject({ first_name: 'Ann', cdcr_number: 'ab 1234', different_person_from: [held.id] });
    expect(await d.db.outbox.count()).toBe(0);
    expect(await d.db.participants.get(saved!.id)).toMatchObject({ different_person_from: [held.id] });
    await d.engine.stop();
  });
});
