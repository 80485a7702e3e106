import { Pencil, Trash2 } from 'lucide-react';
import { Button } from '../../ui/button';

/** The admin Edit and Delete buttons of a program or site card. */
export function CardActions({ onEdit, onDelete }: { onEdit: () => void; onDelete: () => void }) {
  return (
    <div className="mt-3 flex gap-2 border-t border-slate-100 pt-3">
      <Button variant="ghost" className="min-h-9 px-3" onClick={onEdit}>
        <Pencil className="h-4 w-4" aria-hidden="true" />
        Edit
      </Button>
      <Button variant="ghost" className="min-h-9 px-3 text-red-700 hover:bg-red-50" onClick={onDelete}>
        <Trash2 className="h-4 w-4" aria-hidden="true" />
        Delete
      </Button>
    </div>
  );
}
