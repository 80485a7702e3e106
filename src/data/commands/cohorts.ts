import type { Cohort } from '../../../shared/entities';
import type { DataContext } from '../context';
import { createRecord, updateRecord, type EditBasis } from './record-writes';

export type CohortInput = Omit<Cohort, 'id' | 'created_date' | 'updated_date' | 'created_by' | 'created_by_id' | 'client_ref' | 'status'> & {
  status?: Cohort['status'];
};

/** status 'planned' and capacity 20 are the spec defaults (sections 4 and 9); null capacity = unlimited. */
export function createCohort(ctx: DataContext, input: CohortInput): Promise<Cohort> {
  const data: Record<string, unknown> = { ...input };
  if (data.status == null) data.status = 'planned';
  if (data.capacity === undefined) data.capacity = 20;
  return createRecord<Cohort>(ctx, 'Cohort', data);
}

/** `basis`: the cohort as the edit form opened (S18), when it may have changed on another device since. */
export function updateCohort(ctx: DataContext, id: string, patch: Partial<CohortInput>, basis?: EditBasis): Promise<Cohort> {
  return updateRecord<Cohort>(ctx, 'Cohort', id, patch, undefined, basis ? { basis } : undefined);
}
