import type { Program } from '../../../shared/entities';
import { createRecord, deleteRecord, updateRecord } from './record-writes';

export type ProgramInput = Pick<Program, 'program_name'> & Partial<Pick<Program, 'description' | 'active'>>;

/** New programs are active unless said otherwise (spec 4). */
export function createProgram(input: ProgramInput): Promise<Program> {
  return createRecord<Program>('Program', { ...input, active: input.active ?? true });
}

export function updateProgram(id: string, patch: Partial<ProgramInput>): Promise<Program> {
  return updateRecord<Program>('Program', id, patch);
}

export function deleteProgram(id: string): Promise<void> {
  return deleteRecord('Program', id);
}
