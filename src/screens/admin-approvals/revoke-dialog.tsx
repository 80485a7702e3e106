import { Description, Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';

/** What a revocation does, word for word as the administrator must read it before confirming. */
export const REVOKE_TABLET_TEXT = 'It sends any changes still waiting, then erases its copy at its next connection.';
export const REVOKE_COACH_TEXT =
  'Every tablet of this coach erases its copy at its next connection, and every sign-in of this coach ends. Changes still waiting on those tablets are lost.';

/**
 * The confirmation before a revocation: what happens, an optional reason the tablet will show,
 * Cancel and the revoking action. The look of ui/confirm-dialog, with a form for the reason
 * (ConfirmDialog's description is a paragraph, no place for a field). Mounted only while open,
 * so every question starts with an empty reason.
 */
export function RevokeDialog({
  title,
  description,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  title: string;
  description: string;
  confirmLabel: string;
  busy: boolean;
  /** Why the last attempt failed (the server's message), shown inside the dialog. */
  error: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!busy) onConfirm(reason);
  };
  return (
    <Dialog open onClose={() => !busy && onCancel()} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl">
          <form onSubmit={submit}>
            <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
            <Description className="mt-2 text-sm text-slate-600">{description}</Description>
            <TextField
              className="mt-4"
              label="Reason (shown on the tablet)"
              value={reason}
              maxLength={200}
              autoComplete="off"
              disabled={busy}
              onChange={(e) => setReason(e.target.value)}
            />
            {error && (
              <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-800">
                {error}
              </p>
            )}
            <div className="mt-6 flex flex-wrap justify-end gap-3">
              <Button variant="secondary" onClick={onCancel} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={busy}>
                {busy ? 'Revoking...' : confirmLabel}
              </Button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
