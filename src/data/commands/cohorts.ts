import type { Cohort } from '../../../shared/entities';
import { createRecord, updateRecord } from './record-writes';

export type CohortInput = Omit<Cohort, 'id' | 'created_date' | 'updated_date' | 'created_by' | 'created_by_id' | 'client_ref' | 'status'> & {
  status?: Cohort['status'];
};

/** status 'planned' and capacity 20 are the spec defaults (sections 4 and 9); null capacity = unlimited. */
export function createCohort(input: CohortInput): Promise<Cohort> {
  const data: Record<string, unknown> = { ...input };
  if (data.status == null) data.status = 'planned';
  if (data.capacity === undefined) data.capacity = 20;
  return createRecord<Cohort>('Cohort', data);
}

export function updateCohort(id: string, patch: Partial<CohortInput>): Promise<Cohort> {
  return updateRecord<Cohort>('Cohort', id, patch);
}
