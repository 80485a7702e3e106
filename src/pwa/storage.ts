/**
 * Storage persistence and usage (S12). Without persistence a browser may evict IndexedDB under
 * storage pressure, which would take the outbox with it; so the shell asks right after sign-in
 * (Chromium grants it to installed or often-used sites, Firefox asks the user).
 */

/** The part of `navigator.storage` used here (absent in old browsers and some webviews). */
export interface StorageLike {
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
}

export interface StorageInfo {
  /** Bytes used by this origin, or null when the browser does not say. */
  usage: number | null;
  quota: number | null;
  /** True when the browser promised not to evict the data; null when it cannot tell. */
  persisted: boolean | null;
}

function defaultStorage(): StorageLike | undefined {
  return typeof navigator === 'undefined' ? undefined : (navigator.storage as StorageLike | undefined);
}

/** Asks for persistent storage once; resolves to whether storage is persistent now. */
export async function requestPersistentStorage(storage: StorageLike | undefined = defaultStorage()): Promise<boolean> {
  if (!storage?.persist) return false;
  try {
    if (storage.persisted && (await storage.persisted())) return true;
    return await storage.persist();
  } catch {
    // A refusal is not an error the coach can act on; the Sync page shows 'not persistent'.
    return false;
  }
}

export async function readStorageInfo(storage: StorageLike | undefined = defaultStorage()): Promise<StorageInfo> {
  const [estimate, persisted] = await Promise.all([
    storage?.estimate ? storage.estimate().catch(() => null) : Promise.resolve(null),
    storage?.persisted ? storage.persisted().catch(() => null) : Promise.resolve(null),
  ]);
  return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted };
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → '1.5 KB'; powers of 1024, one decimal below 10. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const shown = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value).toString();
  return `${shown} ${UNITS[unit]}`;
}
