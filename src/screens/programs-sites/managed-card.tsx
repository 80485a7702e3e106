import { SECTION_TITLE } from '../../ui/field';
import { useState, type ReactNode } from 'react';
import { Card } from '../../ui/card';
import { pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';
import type { EditBasis } from '../../data/commands/record-writes';
import { useCommand, type DeviceData } from '../parts/use-command';
import { ActiveIcon } from './active-icon';
import { CardActions } from './card-actions';
import { DeleteDialog } from './delete-dialog';

export interface ManagedCardMessages {
  updated: string;
  updateFailed: string;
  deleted: string;
  /** The spec's failure; a program or site that cohorts use adds how many (InUseError, issue #12.4). */
  deleteFailed: string;
  /** Appended to 'This will permanently delete {name}.' (spec 2.11). */
  consequence: string;
}

/** What a column's New form is given. */
export interface ManagedFormProps<I> {
  pending: boolean;
  onSubmit: (input: I) => void;
  onCancel: () => void;
}

/**
 * What a card's Edit form is given: `onSave` takes only the fields the person changed and the
 * basis the form opened on (S4, S18).
 */
export interface ManagedEditProps<I> {
  pending: boolean;
  onSave: (patch: Partial<I>, basis: EditBasis) => void;
  onCancel: () => void;
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
  renderForm: (props: ManagedEditProps<I>) => ReactNode;
  update: (data: DeviceData, patch: Partial<I>, basis: EditBasis) => Promise<unknown>;
  remove: (data: DeviceData) => Promise<unknown>;
  messages: ManagedCardMessages;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const save = useCommand(update, { success: messages.updated, failure: messages.updateFailed, onSuccess: () => setEditing(false) });
  const erase = useCommand(remove, { success: messages.deleted, failure: messages.deleteFailed, onSuccess: () => setConfirming(false) });

  if (editing) {
    return (
      <Card className="p-5">
        <h3 className={`mb-3 ${SECTION_TITLE}`}>Edit {kind}</h3>
        {renderForm({ pending: save.pending, onSave: (patch, basis) => void save.run(patch, basis), onCancel: () => setEditing(false) })}
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
        busy={erase.pending}
        onConfirm={() => void erase.run()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
