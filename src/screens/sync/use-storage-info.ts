import { useCallback, useEffect, useState } from 'react';
import { readStorageInfo, requestPersistentStorage, type StorageInfo } from '../../pwa/storage';

/** The storage numbers for the Sync page, read on mount and after asking for persistence (S12). */
export function useStorageInfo(): { info: StorageInfo | undefined; askPersistent: () => Promise<void> } {
  const [info, setInfo] = useState<StorageInfo | undefined>(undefined);

  const refresh = useCallback(async () => {
    setInfo(await readStorageInfo());
  }, []);

  useEffect(() => {
    let live = true;
    void readStorageInfo().then((i) => live && setInfo(i));
    return () => {
      live = false;
    };
  }, []);

  const askPersistent = useCallback(async () => {
    await requestPersistentStorage();
    await refresh();
  }, [refresh]);

  return { info, askPersistent };
}
