import { RefusedError } from '../errors';
import type { Enrollment } from '../../../shared/entities';
import type { DataContext } from '../context';
import { resolvedId } from '../queries/by-id';
import { createRecord, todayIso, updateRecord } from './record-writes';

export interface EnrollInput {
  participant_id: string;
  cohort_id: string;
  /** Defaults to today (spec 9). */
  intake_date?: string | null;
}

/**
 * Enrol (spec 4: status 'active'). The participant or cohort may still have a temporary id: the
 * engine waits for them to be created and then rewrites the reference (S2, S7).
 */
export async function enrollParticipant(ctx: DataContext, input: EnrollInput): Promise<Enrollment> {
  if (!input.participant_id) throw new RefusedError('A participant must be selected');
  return createRecord<Enrollment>(ctx, 'Enrollment', {
    participant_id: await resolvedId(ctx, input.participant_id),
    cohort_id: await resolvedId(ctx, input.cohort_id),
    intake_date: input.intake_date ?? todayIso(ctx),
    enrollment_status: 'active',
  });
}

/** Unenrol marks the enrollment 'withdrawn'; it is never deleted (spec 4). */
export function unenrollParticipant(ctx: DataContext, enrollmentId: string): Promise<Enrollment> {
  return updateRecord<Enrollment>(ctx, 'Enrollment', enrollmentId, { enrollment_status: 'withdrawn' });
}
