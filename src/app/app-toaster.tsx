import { Toaster } from 'sonner';

/**
 * The one toast outlet (spec.md 2.17, 9): default and destructive (toast.error) variants, at most
 * 20 shown at once.
 */
export const TOAST_LIMIT = 20;

export function AppToaster() {
  // Bottom-right (issue #12.7): at the top they covered the header (sync chip, Sync now, Log out)
  // for ~4 s after every save; at the bottom they cover no header control on any viewport.
  return <Toaster position="bottom-right" visibleToasts={TOAST_LIMIT} richColors closeButton />;
}
