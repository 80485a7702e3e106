import type { Program } from '../../../shared/entities';
import { dataContext } from '../context';
import { InUseError } from '../errors';
import { createRecord, deleteRecord, updateRecord } from './record-writes';

export type ProgramInput = Pick<Program, 'program_name'> & Partial<Pick<Program, 'description' | 'active'>>;

/** New programs are active unless said otherwise (spec 4). */
export function createProgram(input: ProgramInput): Promise<Program> {
  return createRecord<Program>('Program', { ...input, active: input.active ?? true });
}

export function updateProgram(id: string, patch: Partial<ProgramInput>): Promise<Program> {
  return updateRecord<Program>('Program', id, patch);
}

/** Refused with InUseError while cohorts on this device use the program (issue #12.4). */
export function deleteProgram(id: string): Promise<void> {
  const { db } = dataContext();
  return deleteRecord('Program', id, {
    tables: [db.cohorts],
    check: async (realId) => {
      const count = await db.cohorts.where('program_id').equals(realId).count();
      if (count > 0) throw new InUseError('program', count);
    },
  });
}
