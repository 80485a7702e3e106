import { RefusedError } from '../errors';
import type { DataContext } from '../context';
import { CURRENT_USER_KEY } from '../session';
import type { User } from '../../../shared/entities';
import { todayIso, updateRecord } from './record-writes';

/** The coach profile form's fields (spec 2.14 / 7.3 "Submit profile"). */
export type CoachProfileFields = Pick<
  User,
  | 'coach_type'
  | 'phone'
  | 'organization'
  | 'years_experience'
  | 'linkedin_url'
  | 'areas_of_expertise'
  | 'bio'
  | 'certifications'
  | 'emergency_contact_name'
  | 'emergency_contact_phone'
>;

/**
 * Save the profile with requested_access_date = today. It goes through the outbox like any edit
 * (the engine sends the signed-in user's own User update as PUT me), so it works offline; the
 * cached current user changes in the same transaction, so the page shows "pending" at once.
 */
export async function submitCoachProfile(ctx: DataContext, fields: Partial<CoachProfileFields>): Promise<User> {
  const { db, userId } = ctx;
  if (!userId) throw new RefusedError('Sign in before submitting a profile.');
  const cached = (await db.meta.get(CURRENT_USER_KEY))?.value as User | undefined;
  if (!(await db.users.get(userId))) {
    if (!cached) throw new RefusedError('Sign in before submitting a profile.');
    await db.users.put(cached);
  }
  const patch: Record<string, unknown> = { ...fields, requested_access_date: todayIso(ctx) };
  if (patch.years_experience != null) patch.years_experience = Math.trunc(Number(patch.years_experience));
  return updateRecord<User>(ctx, 'User', userId, patch, {
    tables: [db.meta],
    run: async (row) => {
      if (cached?.id === userId) await db.meta.put({ key: CURRENT_USER_KEY, value: { ...cached, ...row } });
    },
  });
}
