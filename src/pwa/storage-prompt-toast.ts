import { toast } from 'sonner';
import { askForPersistentStorage, isTouchFirstDevice } from './storage-prompt';

/** Toast texts are ours: the spec is silent on storage persistence (issue #12.11). */
export const PROMPT_TITLE = 'Keep Passage data on this tablet?';
export const PROMPT_TEXT =
  'Without this, the browser may clear Passage’s data when the tablet runs low on space — including changes not yet synced.';

export const STORAGE_PROMPT_MS = 30_000;

/** The shell's call after a sign-in: the real browser, localStorage and a sonner toast. */
export function promptForPersistentStorage(): void {
  void askForPersistentStorage({
    storage: typeof navigator === 'undefined' ? undefined : navigator.storage,
    store: window.localStorage,
    isTablet: isTouchFirstDevice(),
    ask: (keep) =>
      toast.warning(PROMPT_TITLE, {
        description: PROMPT_TEXT,
        // 30 s, not until answered (issue #23.9): on a portrait tablet it sat over the Dashboard's
        // cards all day. The coach has just signed in and is at the tablet; the Sync page keeps
        // the 'Not persistent' chip and its 'Keep data on this device' button for later.
        duration: STORAGE_PROMPT_MS,
        action: {
          label: 'Keep data',
          onClick: () => {
            void keep().then((granted) =>
              granted
                ? toast.success('Passage data will be kept on this device.')
                : toast.warning('The browser did not agree to keep the data. See the Sync page.'),
            );
          },
        },
      }),
  }).catch(() => undefined);
}
