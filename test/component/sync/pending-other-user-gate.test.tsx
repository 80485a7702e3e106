import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { db } from '../../../src/data/db';
import type { OutboxOp } from '../../../src/data/db';
import { PendingOtherUserGate } from '../../../src/pwa/pending-other-user-gate';
import { makeDevice } from '../../support/device';
import { withData } from '../../support/with-data';

/** The tablet the gate renders on: the app's database, which the tests seed. */
const onTablet = () => withData(makeDevice({ db, userId: null }).data);

afterEach(cleanup);

function op(user_id: string, record_id: string): OutboxOp {
  return { entity: 'Participant', record_id, kind: 'update', data: { phone: '555' }, state: 'pending', attempts: 0, next_attempt_at: 0, user_id, created_at: 1 };
}

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
  await db.users.bulkPut([
    { id: 'coach-a', email: 'a@example.org', full_name: 'Ana Coach' },
    { id: 'admin-b', email: 'admin@example.org', full_name: 'Bo Admin', role: 'admin' },
  ]);
  await db.outbox.bulkAdd([op('coach-a', 'p1'), op('coach-a', 'p2'), op('coach-a', 'p3')]);
  await db.participants.put({ id: 'p1', first_name: 'Lee', last_name: 'Park' });
});
afterEach(() => vi.restoreAllMocks());

describe('PendingOtherUserGate (S11)', () => {
  it("explains whose changes wait and lets a coach only sign out", async () => {
    const onSignOut = vi.fn();
    render(<PendingOtherUserGate user={{ id: 'coach-c', email: 'c@example.org', role: 'user' }} onSignOut={onSignOut} onClear={vi.fn()} />, onTablet());
    expect(await screen.findByRole('heading', { name: "Another user's changes are waiting" })).toBeInTheDocument();
    expect(screen.getByText(/Ana Coach made 3 changes that have not reached the server yet/)).toBeInTheDocument();
    expect(screen.getByText('Only an administrator can discard them.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Discard their changes' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out so they can sync' }));
    expect(onSignOut).toHaveBeenCalledTimes(1);
    expect(await db.outbox.count()).toBe(3);
  });

  it('an admin can discard them after confirming; the local copy is wiped', async () => {
    const onClear = vi.fn();
    render(<PendingOtherUserGate user={{ id: 'admin-b', email: 'admin@example.org', role: 'admin' }} onSignOut={vi.fn()} onClear={onClear} />, onTablet());
    await userEvent.click(await screen.findByRole('button', { name: 'Discard their changes' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('3 changes by Ana Coach will be deleted from this device');
    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(onClear).toHaveBeenCalledTimes(1));
    expect(await db.outbox.count()).toBe(0);
    expect(await db.participants.count()).toBe(0);
  });

  it('cancelling the discard keeps everything', async () => {
    const onClear = vi.fn();
    render(<PendingOtherUserGate user={{ id: 'admin-b', email: 'admin@example.org', role: 'admin' }} onSignOut={vi.fn()} onClear={onClear} />, onTablet());
    await userEvent.click(await screen.findByRole('button', { name: 'Discard their changes' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClear).not.toHaveBeenCalled();
    expect(await db.outbox.count()).toBe(3);
  });
});
