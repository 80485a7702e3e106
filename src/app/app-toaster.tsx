import { Toaster } from 'sonner';

/**
 * The one toast outlet (spec.md 2.17, 9): default and destructive (toast.error) variants, at most
 * 20 shown at once.
 */
export const TOAST_LIMIT = 20;

export function AppToaster() {
  // Bottom-left (issue #12.7): at the top they covered the header (sync chip, Sync now, Log out)
  // for ~4 s after every save. Bottom-left sits mostly over the sidebar's empty lower part from
  // 768 px up, and clear of the controls pages keep at the bottom right (the sticky Save bar of
  // the participant form, dialog buttons).
  return <Toaster position="bottom-left" visibleToasts={TOAST_LIMIT} richColors closeButton />;
}
