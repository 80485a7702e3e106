import { createRoot } from 'react-dom/client';
import { LogoutConfirmDialog } from './logout-confirm-dialog';

/**
 * Resolves true when the logout may go ahead: at once with nothing pending, otherwise after the
 * coach confirmed the warning (S11). Imperative so the shell's logout handler stays one line:
 * `if (!(await confirmLogout(n))) return;`. The dialog mounts in its own root and is removed after.
 */
export function confirmLogout(pendingCount: number): Promise<boolean> {
  if (pendingCount <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    const finish = (ok: boolean) => {
      root.unmount();
      host.remove();
      resolve(ok);
    };
    root.render(<LogoutConfirmDialog open pendingCount={pendingCount} onConfirm={() => finish(true)} onCancel={() => finish(false)} />);
  });
}
