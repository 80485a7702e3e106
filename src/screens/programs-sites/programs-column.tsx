import { SECTION_TITLE } from '../../ui/field';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { createProgram, type ProgramInput } from '../../data/commands/programs';
import { useKeyedPrograms } from '../../data/queries/programs';
import { useIsAdmin } from '../../app/current-user';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { SkeletonCards } from '../../ui/skeleton';
import { ProgramCard } from './program-card';
import { ProgramForm } from '../parts/program-form';

/** The Programs column of spec 2.11: count, admin 'Add Program', cards. */
/** `firstSync`: 'loading' keeps the skeletons, 'partial' (offline, cut off) hides the empty state. */
export function ProgramsColumn({ firstSync = 'ready' }: { firstSync?: 'ready' | 'partial' | 'loading' }) {
  const programs = useKeyedPrograms();
  const isAdmin = useIsAdmin();
  const [adding, setAdding] = useState(false);

  async function create(input: ProgramInput): Promise<boolean> {
    try {
      await createProgram(input);
      toast.success('Program created successfully!');
      setAdding(false);
      return true;
    } catch {
      toast.error('Failed to create program. Please try again.');
      return false;
    }
  }

  return (
    <section aria-labelledby="programs-heading">
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 id="programs-heading" className="text-xl font-semibold text-slate-900">
          Programs ({programs && firstSync === 'ready' ? programs.length : '…'})
        </h2>
        {isAdmin && !adding && (
          <Button onClick={() => setAdding(true)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add Program
          </Button>
        )}
      </div>
      {adding && (
        <Card className="mb-4 p-5">
          <h3 className={`mb-3 ${SECTION_TITLE}`}>New Program</h3>
          <ProgramForm
            initial={{ program_name: '', description: '', active: true }}
            labels={{ submit: 'Create Program', pending: 'Creating...' }}
            onSubmit={create}
            onCancel={() => setAdding(false)}
          />
        </Card>
      )}
      {!programs || firstSync === 'loading' ? (
        <SkeletonCards count={3} className="space-y-4" label="Loading programs" />
      ) : programs.length === 0 ? (
        firstSync === 'partial' ? null : <EmptyState title="No programs yet" description="Create your first program to get started" />
      ) : (
        <ul className="space-y-4">
          {programs.map(({ key, row: program }) => (
            // Keyed by the temporary id when it had one: an open Edit form survives the id swap.
            <li key={key}>
              <ProgramCard program={program} isAdmin={isAdmin} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
