import 'fake-indexeddb/auto';
import { PassageDB } from '../../../src/data/db';
import { setDataContext, resetDataContext } from '../../../src/data/context';

let n = 0;

/** A new database per test (fake-indexeddb) wired into the data context as user `userId`. */
export function freshDb(opts: { userId?: string; now?: () => number } = {}): PassageDB {
  const db = new PassageDB(`test-${process.pid}-${Date.now()}-${n++}`);
  let uuid = 0;
  resetDataContext();
  setDataContext({
    db,
    userId: opts.userId ?? 'user-1',
    now: opts.now ?? (() => Date.UTC(2026, 0, 15, 12)),
    newUuid: () => `00000000-0000-4000-8000-${String(++uuid).padStart(12, '0')}`,
  });
  return db;
}
