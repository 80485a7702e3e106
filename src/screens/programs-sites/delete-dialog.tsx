import { ConfirmDialog } from '../../ui/confirm-dialog';

/** The delete confirmation of spec 2.11; `consequence` is the program or site sentence. */
export function DeleteDialog({ open, name, consequence, busy, onConfirm, onCancel }: {
  open: boolean;
  name: string;
  consequence: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title="Are you sure?"
      description={`This will permanently delete ${name}.${consequence}`}
      confirmLabel="Delete"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
