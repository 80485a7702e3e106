import { createRoot } from 'react-dom/client';

/**
 * Resolves true when the logout may go ahead: at once with nothing pending, otherwise after the
 * coach confirmed the warning (S11). Imperative so the shell's logout handler stays one line:
 * `if (!(await confirmLogout(n))) return;`. The dialog mounts in its own root and is removed after.
 */
export async function confirmLogout(pendingCount: number): Promise<boolean> {
  if (pendingCount <= 0) return true;
  // Loaded on demand: the dialog (headlessui) stays out of the JavaScript of the first page.
  const { LogoutConfirmDialog } = await import('./logout-confirm-dialog');
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
