import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import { SyncPage } from '../../../src/screens/sync/sync-page';
import { NOW, op, renderAtSync, resetWorld, setStatus } from './render-sync';

/** Issue #23.7: a create the server refused as a possible duplicate is reviewable on the Sync page. */
afterEach(cleanup);
afterEach(() => vi.useRealTimers());

let world: Awaited<ReturnType<typeof resetWorld>>;
beforeEach(async () => {
  world = await resetWorld();
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  await setStatus({ lastSyncedAt: NOW - 60_000 });
  await db.participants.bulkPut([
    { id: 'held-1', first_name: 'Ana', last_name: 'Ruiz', academy_uid: 'U-77', cdcr_number: 'AB1234' },
    { id: 'local-p2', first_name: 'Ann', last_name: 'Ruis', cdcr_number: 'ab-1234' },
  ]);
});

const refused = (extra: Record<string, unknown> = {}) =>
  op({
    entity: 'Participant',
    record_id: 'local-p2',
    kind: 'create',
    data: { first_name: 'Ann', last_name: 'Ruis', cdcr_number: 'ab-1234', client_ref: 'r1', ...extra },
    state: 'rejected',
    attempts: 1,
    last_error: {
      status: 409,
      code: 'POSSIBLE_DUPLICATE',
      message: 'A participant with this CDCR number already exists (UID U-77). Open it to check, or mark this one as a different person.',
      duplicate_ids: ['held-1', 'beyond-9'],
    },
  });

describe('Sync page: a possible duplicate (issue #23.7)', () => {
  it('names the records it matches, with Open for each (on this tablet or not)', async () => {
    await db.outbox.add(refused());
    await renderAtSync(<SyncPage />);
    const card = await screen.findByRole('listitem', { name: 'Rejected: Participant Ann Ruis' });
    expect(card).toHaveTextContent('The server said: A participant with this CDCR number already exists (UID U-77).');
    const review = within(card).getByLabelText('Possible duplicate');
    expect(review).toHaveTextContent('Possible duplicate: this CDCR number is already on the server.');
    await waitFor(() => expect(review).toHaveTextContent('Ana Ruiz (UID U-77)'));
    expect(review).toHaveTextContent('A participant not on this tablet');
    expect(within(review).getByRole('link', { name: 'Open Ana Ruiz' }).getAttribute('href')).toBe('/participantdetail?id=held-1');
    expect(within(review).getByRole('link', { name: 'Open the participant already on the server' }).getAttribute('href')).toBe('/participantdetail?id=beyond-9');
    // Retry, Edit and Discard stay (S8).
    expect(within(card).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('"This is a different person" records the ids on the create and the participant, and sends it again', async () => {
    const seq = await db.outbox.add(refused({ different_person_from: ['earlier-1'] }));
    await renderAtSync(<SyncPage />);
    const card = await screen.findByRole('listitem', { name: 'Rejected: Participant Ann Ruis' });
    await userEvent.click(within(card).getByRole('button', { name: 'This is a different person' }));
    await waitFor(async () =>
      expect(await db.outbox.get(seq)).toMatchObject({ state: 'pending', data: { different_person_from: ['earlier-1', 'held-1', 'beyond-9'] } }),
    );
    expect((await db.participants.get('local-p2'))?.different_person_from).toEqual(['earlier-1', 'held-1', 'beyond-9']);
    expect(world.syncNowCalls()).toBeGreaterThan(0);
  });

  it('other refusals show no review', async () => {
    await db.outbox.add(op({ entity: 'Participant', record_id: 'local-p2', kind: 'create', data: { first_name: 'Ann' }, state: 'rejected', last_error: { status: 422, message: 'bad' } }));
    await renderAtSync(<SyncPage />);
    await screen.findByRole('listitem', { name: 'Rejected: Participant Ann Ruis' });
    expect(screen.queryByLabelText('Possible duplicate')).toBeNull();
  });
});
