import { describe, expect, it } from 'vitest';
import { makeDevice } from '../../support/device';
import { approveUser, rejectUser } from '../../../src/data/online/approvals';
import { OfflineError } from '../../../src/data/errors';
import type { PlatformClientLike, Row } from '../../../src/data/platform-like';

function clientWith(update: (id: string, data: Record<string, unknown>) => Promise<Row>): PlatformClientLike {
  const entity = { update } as unknown as ReturnType<PlatformClientLike['entities']>;
  return { entities: () => entity, auth: { me: async () => ({ id: 'x' }), updateMe: async () => ({ id: 'x' }) } };
}

describe('approvals (online only)', () => {
  it('approving sends the approval fields and updates the users mirror', async () => {
    const sent: unknown[] = [];
    const { data, db } = makeDevice({ client: clientWith(async (id, body) => (sent.push([id, body]), { id, email: 'c@x.org', ...body })) });
    await db.users.put({ id: 'c1', email: 'c@x.org', requested_access_date: '2026-01-10' });
    await approveUser(data, { id: 'c1', email: 'c@x.org' }, 'user', 'admin@example.org');
    expect(sent).toEqual([['c1', { approved: true, approval_date: '2026-01-15', approved_by: 'admin@example.org', role: 'user' }]]);
    expect(await db.users.get('c1')).toMatchObject({ approved: true, role: 'user', requested_access_date: '2026-01-10' });
  });

  it('without a connection it throws OfflineError with a clear message and changes nothing', async () => {
    const { data, db } = makeDevice({ client: clientWith(async () => Promise.reject(Object.assign(new Error('fetch failed'), { status: undefined }))) });
    await db.users.put({ id: 'c1', email: 'c@x.org' });
    const err = await rejectUser(data, { id: 'c1', email: 'c@x.org' }).catch((e) => e);
    expect(err).toBeInstanceOf(OfflineError);
    expect(err.message).toBe('You are offline. Approvals need a connection.');
    expect(await db.users.get('c1')).toEqual({ id: 'c1', email: 'c@x.org' });
  });

  it('a server refusal is passed on as is', async () => {
    const { data } = makeDevice({ client: clientWith(async () => Promise.reject(Object.assign(new Error('Forbidden'), { status: 403 }))) });
    await expect(rejectUser(data, { id: 'c1', email: 'c@x.org' })).rejects.toMatchObject({ status: 403 });
  });
});
