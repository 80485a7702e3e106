import { useState } from 'react';
import { toast } from 'sonner';
import { deleteProgram, updateProgram, type ProgramInput } from '../../data/commands/programs';
import type { Program } from '../../data/types';
import { Card } from '../../ui/card';
import { PageLink } from '../../ui/page-link';
import { ActiveIcon } from './active-icon';
import { CardActions } from './card-actions';
import { DeleteDialog } from './delete-dialog';
import { ProgramForm } from './program-form';

/** A program card (spec 2.11): links to ProgramDetail; admins edit inline and delete after confirming. */
export function ProgramCard({ program, isAdmin }: { program: Program; isAdmin: boolean }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const name = program.program_name || 'Untitled Program';

  async function save(input: ProgramInput): Promise<boolean> {
    try {
      await updateProgram(program.id, input);
      toast.success('Program updated successfully!');
      setEditing(false);
      return true;
    } catch {
      toast.error('Failed to update program');
      return false;
    }
  }

  async function remove() {
    setDeleting(true);
    try {
      await deleteProgram(program.id);
      toast.success('Program deleted successfully!');
      setConfirming(false);
    } catch {
      toast.error('Failed to delete program. It may be in use by cohorts.');
    } finally {
      setDeleting(false);
    }
  }

  if (editing) {
    return (
      <Card className="p-5">
        <h3 className="mb-3 text-base font-semibold text-slate-900">Edit Program</h3>
        <ProgramForm initial={program} labels={{ submit: 'Save', pending: 'Saving...' }} onSubmit={save} onCancel={() => setEditing(false)} />
      </Card>
    );
  }

  return (
    <Card className="p-5">
      <article aria-label={name}>
        <PageLink page="ProgramDetail" id={program.id} className="group flex items-start justify-between gap-3 rounded-lg">
          <span className="min-w-0">
            <span className="block text-lg font-semibold text-slate-900 group-hover:text-blue-700">{name}</span>
            {program.description && <span className="mt-1 line-clamp-3 block text-sm text-slate-600">{program.description}</span>}
          </span>
          <ActiveIcon active={program.active} />
        </PageLink>
        {isAdmin && <CardActions onEdit={() => setEditing(true)} onDelete={() => setConfirming(true)} />}
      </article>
      <DeleteDialog
        open={confirming}
        name={name}
        consequence=" Any cohorts using this program will be affected."
        busy={deleting}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
