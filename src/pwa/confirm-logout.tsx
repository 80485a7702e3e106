import { createRoot } from 'react-dom/client';
import { logoutWarning } from './logout-warning';

/**
 * Resolves true when the logout may go ahead: at once with nothing pending, otherwise after the
 * coach confirmed the warning (S11). Imperative so the shell's logout handler stays one line:
 * `if (!(await confirmLogout(n))) return;`. The dialog mounts in its own root and is removed after.
 */
export async function confirmLogout(pendingCount: number): Promise<boolean> {
  if (pendingCount <= 0) return true;
  // Its own chunk (headlessui), preloaded after the first page (src/app/screens.ts). Should it be
  // missing (offline before it arrived), the browser's own dialog still warns: never a silent logout.
  const loaded = await import('./logout-confirm-dialog').catch(() => null);
  if (!loaded) return window.confirm(logoutWarning(pendingCount));
  const { LogoutConfirmDialog } = loaded;
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
