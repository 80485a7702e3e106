import { SECTION_TITLE } from '../../ui/field';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { InUseError } from '../../data/errors';
import { Card } from '../../ui/card';
import { pageUrl } from '../../app/paths';
import { PageLink } from '../../ui/page-link';
import { ActiveIcon } from './active-icon';
import { CardActions } from './card-actions';
import { DeleteDialog } from './delete-dialog';

export interface ManagedCardMessages {
  updated: string;
  updateFailed: string;
  deleted: string;
  deleteFailed: string;
  /** Appended to 'This will permanently delete {name}.' (spec 2.11). */
  consequence: string;
}

/**
 * A program or site card (spec 2.11): links to its detail page; admins edit it inline and delete
 * it after confirming. The two kinds differ only in their details, form and messages.
 */
export function ManagedCard<I>({
  kind,
  id,
  name,
  active,
  details,
  isAdmin,
  renderForm,
  update,
  remove,
  messages,
}: {
  kind: 'Program' | 'Site';
  id: string;
  name: string;
  active: boolean | null | undefined;
  details: ReactNode;
  isAdmin: boolean;
  renderForm: (props: { onSubmit: (input: I) => Promise<boolean>; onCancel: () => void }) => ReactNode;
  update: (input: I) => Promise<unknown>;
  remove: () => Promise<unknown>;
  messages: ManagedCardMessages;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function save(input: I): Promise<boolean> {
    try {
      await update(input);
      toast.success(messages.updated);
      setEditing(false);
      return true;
    } catch {
      toast.error(messages.updateFailed);
      return false;
    }
  }

  async function confirmDelete() {
    setDeleting(true);
    try {
      await remove();
      toast.success(messages.deleted);
      setConfirming(false);
    } catch (error) {
      // The spec's failure toast; when we know the cohorts that hold it, say how many (issue #12.4).
      toast.error(messages.deleteFailed, error instanceof InUseError ? { description: error.message } : undefined);
    } finally {
      setDeleting(false);
    }
  }

  if (editing) {
    return (
      <Card className="p-5">
        <h3 className={`mb-3 ${SECTION_TITLE}`}>Edit {kind}</h3>
        {renderForm({ onSubmit: save, onCancel: () => setEditing(false) })}
      </Card>
    );
  }

  return (
    <Card className="p-5">
      <article aria-label={name}>
        <PageLink href={pageUrl(kind === 'Program' ? 'ProgramDetail' : 'SiteDetail', id)} className="group flex items-start justify-between gap-3 rounded-lg">
          <span className="min-w-0">
            <span className="block text-lg font-semibold text-slate-900 group-hover:text-blue-700">{name}</span>
            {details}
          </span>
          <ActiveIcon active={active} />
        </PageLink>
        {isAdmin && <CardActions onEdit={() => setEditing(true)} onDelete={() => setConfirming(true)} />}
      </article>
      <DeleteDialog
        open={confirming}
        name={name}
        consequence={messages.consequence}
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
