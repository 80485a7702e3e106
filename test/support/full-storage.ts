import type { Table } from 'dexie';
import type { PassageDB } from '../../src/data/db';

/** The outbox row a write queues, as far as refuseWrites looks at it. */
interface QueuedChange {
  entity: string;
  kind: string;
}

/**
 * The device refuses writes: from now on every write that queues a change for which `errorFor`
 * gives an error fails with it, inside the write's own transaction, as IndexedDB fails a write (a
 * full disk, an aborted transaction), so nothing of the write is kept. Call the returned function
 * to accept writes again. A stand-in at the storage's edge, so a screen test keeps the real
 * commands and their error handling (and shares its worker's modules, vitest.config.ts) instead of
 * mocking a command module.
 */
export function refuseWrites(db: PassageDB, errorFor: (change: QueuedChange) => Error | undefined): () => void {
  const refuse = (_key: unknown, change: QueuedChange) => {
    const error = errorFor(change);
    if (error) throw error;
  };
  db.outbox.hook('creating', refuse);
  return () => db.outbox.hook('creating').unsubscribe(refuse);
}

/** What IndexedDB throws when the device's storage is full. */
export function quotaExceeded(): DOMException {
  return new DOMException('The quota has been exceeded.', 'QuotaExceededError');
}

/**
 * The device's storage is full: every write fails as a full disk makes IndexedDB fail, through the
 * data layer's own quota handling (src/data/errors.ts guardQuota → StorageFullError).
 */
export function fillStorage(db: PassageDB): () => void {
  return refuseWrites(db, quotaExceeded);
}

/**
 * Another write holds `table` until the returned function is called: a transaction on it stays
 * open (it keeps asking IndexedDB for the count), so a command that writes the table waits, as
 * on a tablet busy with a long write. For a test of what a screen shows while its save is in
 * flight, with the real command (instead of gating a mocked one).
 */
export function holdWrites(db: PassageDB, table: Table): () => void {
  const store = db.backendDB().transaction([table.name], 'readwrite').objectStore(table.name);
  let held = true;
  const ask = () => {
    if (held) store.count().onsuccess = ask;
  };
  ask();
  return () => {
    held = false;
  };
}
