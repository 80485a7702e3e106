import { ConfirmDialog } from '../ui/confirm-dialog';
import { logoutWarning } from './logout-warning';

/** The question S11 asks before a logout that would leave changes unsent. */
export function LogoutConfirmDialog({ open, pendingCount, onConfirm, onCancel }: { open: boolean; pendingCount: number; onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      open={open}
      title="Changes not yet synced"
      description={logoutWarning(pendingCount)}
      confirmLabel="Log out anyway"
      cancelLabel="Stay signed in"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
