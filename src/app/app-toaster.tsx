import { useContext, useEffect } from 'react';
import { Toaster, toast } from 'sonner';
import { AuthContext } from './auth/auth-context';

/**
 * The one toast outlet (spec.md 2.17, 9): default and destructive (toast.error) variants, at most
 * 20 shown at once.
 */
export const TOAST_LIMIT = 20;

export function AppToaster() {
  // Issue #23.9: toasts stayed over the lock screen (the outlet sits beside the auth gate, and
  // sonner's layer is above every page). While the app is not shown — locked, choosing a PIN,
  // another account's changes waiting — there is no outlet, and what was shown is dismissed:
  // locking drops what the app held in memory, and a toast may quote a server's message.
  const auth = useContext(AuthContext);
  const appHidden = !!auth?.isAuthenticated && auth.lock !== 'unlocked';
  useEffect(() => {
    if (appHidden) toast.dismiss();
  }, [appHidden]);
  if (appHidden) return null;
  // Bottom-left (issue #12.7): at the top they covered the header (sync chip, Sync now, Log out)
  // for ~4 s after every save; clear of the controls pages keep at the bottom right (the sticky
  // Save bar of the participant form, dialog buttons). Beside an open sidebar they stay inside its
  // column, beside the icon rail clear of its icons (src/index.css, issue #23.9).
  return <Toaster position="bottom-left" visibleToasts={TOAST_LIMIT} richColors closeButton />;
}
