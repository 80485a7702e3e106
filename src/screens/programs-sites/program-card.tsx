import { deleteProgram, updateProgram, type ProgramInput } from '../../data/commands/programs';
import type { Program } from '../../../shared/entities';
import { ManagedCard } from './managed-card';
import { ProgramForm } from '../parts/program-form';

const MESSAGES = {
  updated: 'Program updated successfully!',
  updateFailed: 'Failed to update program',
  deleted: 'Program deleted successfully!',
  deleteFailed: 'Failed to delete program. It may be in use by cohorts.',
  consequence: ' Any cohorts using this program will be affected.',
};

/** A program card (spec 2.11): name ('Untitled Program' when empty), description, active mark. */
export function ProgramCard({ program, isAdmin }: { program: Program; isAdmin: boolean }) {
  return (
    <ManagedCard<ProgramInput>
      kind="Program"
      id={program.id}
      name={program.program_name || 'Untitled Program'}
      active={program.active}
      isAdmin={isAdmin}
      details={program.description && <span className="mt-1 line-clamp-3 block text-sm text-slate-600">{program.description}</span>}
      renderForm={(form) => <ProgramForm record={program} labels={{ submit: 'Save', pending: 'Saving...' }} {...form} />}
      update={(data, patch, basis) => updateProgram(data, program.id, patch, basis)}
      remove={(data) => deleteProgram(data, program.id)}
      messages={MESSAGES}
    />
  );
}
