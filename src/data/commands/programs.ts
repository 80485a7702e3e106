import type { Program } from '../../../shared/entities';
import type { DataContext } from '../context';
import { InUseError } from '../errors';
import { createRecord, deleteRecord, updateRecord, type EditBasis } from './record-writes';

export type ProgramInput = Pick<Program, 'program_name'> & Partial<Pick<Program, 'description' | 'active'>>;

/** New programs are active unless said otherwise (spec 4). */
export function createProgram(ctx: DataContext, input: ProgramInput): Promise<Program> {
  return createRecord<Program>(ctx, 'Program', { ...input, active: input.active ?? true });
}

/** `basis`: the program as the edit form opened (S18), when it may have changed on another device since. */
export function updateProgram(ctx: DataContext, id: string, patch: Partial<ProgramInput>, basis?: EditBasis): Promise<Program> {
  return updateRecord<Program>(ctx, 'Program', id, patch, undefined, basis ? { basis } : undefined);
}

/** Refused with InUseError while cohorts on this device use the program (issue #12.4). */
export function deleteProgram(ctx: DataContext, id: string): Promise<void> {
  const { db } = ctx;
  return deleteRecord(ctx, 'Program', id, {
    tables: [db.cohorts],
    check: async (realId) => {
      const count = await db.cohorts.where('program_id').equals(realId).count();
      if (count > 0) throw new InUseError('program', count);
    },
  });
}
