import { requestPersistentStorage, type StorageLike } from './storage';

/**
 * Issue #12.11: persistent storage used to be a button buried at the bottom of the Sync page. Right
 * after the first successful sign-in on a tablet (installed or not) Passage asks the browser; when
 * the browser did not grant it silently, a toast explains why it matters and asks again from the
 * coach's tap (browsers weigh a user gesture). Asked once per device; the Sync page keeps a
 * 'Not persistent' warning chip and the button for later.
 */

/** localStorage key: set once the device has been asked (whatever the answer). */
export const STORAGE_PROMPT_KEY = 'passage_storage_prompted';

export interface StoragePromptDeps {
  storage: StorageLike | undefined;
  /** Remembers that this device was asked. */
  store: Pick<Storage, 'getItem' | 'setItem'>;
  /** A touch-first device: coarse pointer or touch points (tablets, installed or in the browser). */
  isTablet: boolean;
  /** Shows the question; `keep` runs from the coach's tap. */
  ask: (keep: () => Promise<boolean>) => void;
}

/** After a sign-in: ask silently; on a tablet not yet asked and not granted, ask the coach. */
export async function askForPersistentStorage(deps: StoragePromptDeps): Promise<'granted' | 'asked' | 'not-asked'> {
  const granted = await requestPersistentStorage(deps.storage);
  if (granted) return 'granted';
  if (!deps.isTablet || deps.store.getItem(STORAGE_PROMPT_KEY)) return 'not-asked';
  deps.store.setItem(STORAGE_PROMPT_KEY, new Date().toISOString());
  deps.ask(() => requestPersistentStorage(deps.storage));
  return 'asked';
}

export function isTouchFirstDevice(): boolean {
  if (typeof window === 'undefined') return false;
  return window.matchMedia?.('(pointer: coarse)').matches === true || (navigator.maxTouchPoints ?? 0) > 0;
}
