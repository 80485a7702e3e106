
/** One id, so a second 'waiting' (another tab) never stacks a second toast. */
const TOAST_ID = 'pwa-update';

/**
 * The update prompt (issue #5.3). It stays until acted on (a coach may be away from the tablet
 * when it appears); Reload switches to the new version. Needs the shell's sonner <Toaster/>.
 */
export function showUpdateToast(apply: () => void): void {
  // sonner is not part of the first page's JavaScript; by the time a new version is found it is loaded.
  void import('sonner').then(({ toast }) =>
    toast('New version available', {
    id: TOAST_ID,
    description: 'Reload to use it. Changes not yet synced are kept.',
    duration: Infinity,
    action: { label: 'Reload', onClick: apply },
    }),
  );
}
