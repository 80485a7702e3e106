import { Toaster } from 'sonner';

/**
 * The one toast outlet (spec.md 2.17, 9): default and destructive (toast.error) variants, at most
 * 20 shown at once.
 */
export const TOAST_LIMIT = 20;

export function AppToaster() {
  return <Toaster position="top-right" visibleToasts={TOAST_LIMIT} richColors closeButton />;
}
