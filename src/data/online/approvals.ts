/**
 * Coach approvals are online only (design: an admin at a desk; a queued approval that fails an
 * hour later would surprise everyone). They call the platform directly and, on success, put the
 * server's answer in the users mirror.
 */
import type { DataContext } from '../context';
import { OfflineError } from '../errors';
import type { Role, User } from '../../../shared/entities';
import { todayIso } from '../commands/record-writes';

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

async function updateUser({ client, db }: DataContext, user: User, data: Record<string, unknown>): Promise<User> {
  if (!client || isOffline()) throw new OfflineError();
  let saved: User;
  try {
    saved = (await client.entities('User').update(user.id, data)) as unknown as User;
  } catch (error) {
    // No HTTP answer at all: the device cannot reach the server.
    if ((error as { status?: number }).status === undefined) throw new OfflineError();
    throw error;
  }
  const existing = await db.users.get(user.id);
  await db.users.put({ ...existing, ...user, ...saved });
  return saved;
}

/** Pending → Approved as coach ('user') or admin (spec 4). */
export function approveUser(ctx: DataContext, user: User, role: Extract<Role, 'user' | 'admin'>, adminEmail: string): Promise<User> {
  return updateUser(ctx, user, { approved: true, approval_date: todayIso(ctx), approved_by: adminEmail, role });
}

/** Pending → Rejected. */
export function rejectUser(ctx: DataContext, user: User): Promise<User> {
  return updateUser(ctx, user, { approved: false, role: 'guest' });
}

/** Approved → revoked. */
export function revokeUser(ctx: DataContext, user: User): Promise<User> {
  return updateUser(ctx, user, { approved: false, role: 'guest' });
}
