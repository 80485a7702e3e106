import type { DBCore, DBCoreCursor, DBCoreTable, Middleware } from 'dexie';
import { openJson, placeOf } from './cipher';
import { CLEAR_FIELDS, SEALED_FIELD, SEALED_META_KEYS } from './policy';
import { VaultLockedError } from './errors';
import { CACHED_TABLES, OpenedRows, rememberOpened } from './opened-rows';
import { openRow, sealMeta, sealOf, sealRow, sealRowParts } from './rows';
import { DROPPED, drop, followMarkers, SealState, type Opened } from './seal-state';

/**
 * The sealing layer (issue #14.1): a Dexie DBCore middleware at the bottom of the stack, right
 * above IndexedDB, so commands, queries, the engine and Dexie's own live-query tracking see plain
 * rows and only the stored copy is sealed. This file wires it into Dexie (each table's requests,
 * cursors); a row is sealed and opened in ./rows.ts, opened participants are kept in
 * ./opened-rows.ts, and the markers and the rows left out are followed in ./seal-state.ts.
 *
 * Each seal is bound to its place (issue #21.5): the AAD is (table, primary key, seal version), so a
 * sealed value copied onto another row or into another table does not open there. Such a row, and
 * a row of a sealed table that carries no seal at all while the device is sealed (planted: a plain
 * participant, a queued op that would sync under the coach's account), is dropped from what reads
 * return (`get` answers undefined, lists leave it out) and logged: never returned as real data,
 * and no list crashes on it. Counts and index-key reads still see it (they open nothing); a
 * primary-key read (primaryKeys(), which Dexie's modify starts with) leaves out the rows this
 * connection has already found not to open.
 *
 * Rows a version 2 device stored plain (db.ts version 3 marks them with PLAIN_ROWS_KEY) read as
 * they are until `sealExistingRows` has rewritten them and deleted the marker. Seals written
 * before issue #21 (no version byte, no AAD) open until meta SEAL_FORMAT_KEY says every row was
 * rewritten; each is sealed with its place the next time its row is written.
 */

/** Where the middleware gets the data key (KeyRing, ./key-ring.ts). */
export interface KeySource {
  /** The data key while unlocked; null while locked. */
  key(): Uint8Array | null;
  /** Called when the key changes (unlock, lock): the opened rows below are dropped at once. */
  subscribe?(listener: () => void): () => void;
}

type Row = Record<string, unknown>;

function needKey(keys: KeySource, table: string): Uint8Array {
  const key = keys.key();
  if (!key) throw new VaultLockedError(table);
  return key;
}

interface Codec {
  seal(row: Row): Row;
  open(row: Row): Opened;
}

function codec(name: string, primaryKey: string, keys: KeySource, opened: OpenedRows, state: SealState): Codec | null {
  const clear = CLEAR_FIELDS[name];
  if (name === 'meta') {
    return {
      seal: (row: Row) => (SEALED_META_KEYS.has(row.key as string) ? sealMeta(needKey(keys, name), row) : row),
      open: (row: Row): Opened => {
        const sealed = sealOf(row);
        if (sealed === undefined) {
          // Plain: sync state and other clear keys; a sealed key only while plain rows may exist.
          if (!SEALED_META_KEYS.has(row.key as string) || state.plainRows) return row;
          return drop(state, name, row.key, 'a sealed key stored without a seal');
        }
        if (!sealed) return drop(state, name, row.key, 'no seal');
        const key = needKey(keys, name);
        try {
          return { key: row.key, value: openJson(key, sealed, placeOf('meta', row.key), { legacy: state.legacySeals }) };
        } catch {
          return drop(state, name, row.key, 'its seal does not open here (moved, changed or another key)');
        }
      },
    };
  }
  if (!clear) return null;
  const cached = CACHED_TABLES.has(name);
  const open = (row: Row): Opened => {
    const pk = row[primaryKey];
    const sealed = sealOf(row);
    if (sealed === undefined) return state.plainRows ? row : drop(state, name, pk, 'a row without a seal in a sealed table');
    // `_enc: null` was written before issue #21 for a row without personal fields; a queued op
    // always has some (its data), so one without is never taken as real.
    if (sealed === null && (!state.legacySeals || name === 'outbox')) return drop(state, name, pk, 'no seal');
    const key = needKey(keys, name);
    try {
      return openRow(key, row, placeOf(name, pk), { clear, rows: cached ? opened.table(name, key) : undefined, legacy: state.legacySeals });
    } catch {
      return drop(state, name, pk, 'its seal does not open here (moved, changed or another key)');
    }
  };
  const seal = (row: Row): Row => {
    const key = needKey(keys, name);
    const aad = placeOf(name, row[primaryKey]);
    if (!cached) return sealRow(key, clear, row, aad);
    // What this device writes (a pull's pages, a coach's edit) is known in the clear already: the
    // next read of the row does not open it again.
    const { stored, secret } = sealRowParts(key, clear, row, aad);
    if (secret) rememberOpened(opened.table(name, key), row.id, stored[SEALED_FIELD] as Uint8Array, secret);
    return stored;
  };
  return { seal, open };
}

/**
 * A cursor whose `value` is the opened row. Everything else is forwarded by hand, each read at
 * call time: in a browser the cursor below is a native IDBCursor (with Dexie's methods added), and
 * native getters and methods throw "Illegal invocation" when reached through a prototype chain.
 */
function wrapCursor(cursor: DBCoreCursor, open: (row: Row) => Opened): DBCoreCursor {
  let seenFor: unknown = undefined;
  let seenRaw: unknown = undefined;
  let opened: unknown = undefined;
  const current = (): unknown => {
    const raw = cursor.value;
    // One opening per position: filters and Dexie's modify read `value` more than once.
    if (raw !== seenRaw || cursor.primaryKey !== seenFor) {
      seenRaw = raw;
      seenFor = cursor.primaryKey;
      opened = raw && typeof raw === 'object' ? open(raw as Row) : raw;
    }
    return opened;
  };
  const wrapper: DBCoreCursor = {
    get trans() {
      return cursor.trans;
    },
    get key() {
      return cursor.key;
    },
    get primaryKey() {
      return cursor.primaryKey;
    },
    get done() {
      return cursor.done;
    },
    get value() {
      const value = current();
      return value === DROPPED ? undefined : value;
    },
    continue: (key?: unknown) => (key === undefined ? cursor.continue() : cursor.continue(key)),
    continuePrimaryKey: (key: unknown, primaryKey: unknown) => cursor.continuePrimaryKey(key, primaryKey),
    advance: (count: number) => cursor.advance(count),
    // A row that does not open here is stepped over: the iteration above never sees it.
    start: (onNext: () => void) =>
      cursor.start(() => {
        if (current() === DROPPED) cursor.continue();
        else onNext();
      }),
    stop: (value?: unknown) => cursor.stop(value),
    // As Dexie's own next() (one step, then stop), over this cursor's start: dropped rows skipped.
    next: () => {
      let gotOne = 1;
      return wrapper.start(() => (gotOne-- ? wrapper.continue() : wrapper.stop())).then(() => wrapper);
    },
    fail: (error: Error) => cursor.fail(error),
  };
  return wrapper;
}

function sealingTable(table: DBCoreTable, keys: KeySource, opened: OpenedRows, state: SealState): DBCoreTable {
  const pk = table.schema.primaryKey;
  const keyPath = typeof pk.keyPath === 'string' ? pk.keyPath : null;
  const c = keyPath ? codec(table.name, keyPath, keys, opened, state) : null;
  if (!c || !keyPath) return table;
  const autoIncrement = !!pk.autoIncrement;
  const dropped = (key: unknown) => state.isDropped(table.name, key);
  const openOne = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v;
    const row = c.open(v as Row);
    return row === DROPPED ? undefined : row;
  };
  const openList = (values: unknown[]) => {
    const out: unknown[] = [];
    for (const v of values) {
      const row = openOne(v);
      if (row !== undefined) out.push(row);
    }
    return out;
  };
  // `.then` on the promise the layer below returns, never async/await: Dexie's promises carry the
  // transaction zone (PSD) to the caller's continuation; a native promise would drop it.
  return {
    ...table,
    mutate(req) {
      if (req.type === 'delete') opened.forget(table.name, req.keys);
      if (req.type === 'deleteRange') opened.forget(table.name, null);
      if (table.name === 'meta') followMarkers(req, state);
      if (req.type === 'delete') state.forgetDropped(table.name, req.keys);
      if (req.type === 'deleteRange') state.forgetDropped(table.name, null);
      if (req.type !== 'add' && req.type !== 'put') return table.mutate(req);
      const rows = req.values as Row[];
      if (state.hasDropped(table.name)) state.forgetDropped(table.name, rows.map((row) => row[keyPath]));
      const sealed = rows.map((v) => c.seal(v));
      // A row of an auto-increment table (outbox, conflicts) gets its key from IndexedDB: it is
      // sealed first for no place, then again, in the same transaction, for the key it got.
      const unkeyed = autoIncrement ? rows.flatMap((row, i) => (row[keyPath] === undefined ? [i] : [])) : [];
      if (!unkeyed.length) return table.mutate({ ...req, values: sealed });
      return table.mutate({ ...req, values: sealed }).then((res) => {
        const again: Row[] = [];
        for (const i of unkeyed) {
          const key = res.results?.[i];
          if (res.failures[i] || key === undefined) continue;
          again.push(c.seal({ ...rows[i], [keyPath]: key }));
        }
        if (!again.length) return res;
        return table.mutate({ type: 'put', trans: req.trans, values: again }).then((second) => {
          if (second.numFailures) throw Object.values(second.failures)[0] ?? new Error(`${table.name}: a row could not be sealed for its key`);
          return res;
        });
      });
    },
    get(req) {
      return table.get(req).then(openOne);
    },
    getMany(req) {
      return table.getMany(req).then((values) => values.map(openOne));
    },
    query(req) {
      return table.query(req).then((res) => {
        if (req.values) return { ...res, result: openList(res.result) };
        // Keys only (IndexedDB's getAllKeys: primary keys, on an index too): the rows seen not to
        // open are left out. Counts still include them (count() opens nothing).
        if (state.hasDropped(table.name)) return { ...res, result: res.result.filter((key) => !dropped(key)) };
        return res;
      });
    },
    openCursor(req) {
      // Key cursors (keys(), uniqueKeys(): index keys, e.g. whose ops wait, S11) are left as they are.
      return table.openCursor(req).then((cursor) => (cursor && req.values !== false ? wrapCursor(cursor, c.open) : cursor));
    },
  };
}

export function sealingMiddleware(keys: KeySource, opened = new OpenedRows(), state = new SealState()): Middleware<DBCore> {
  // The opened rows go with the key, at once: nothing opened outlives a lock in this cache.
  keys.subscribe?.(() => opened.clear());
  return {
    stack: 'dbcore',
    name: 'PassageSealing',
    // Below Dexie's own layers (cache, observability: level 0, -1): they see plain rows.
    level: -10,
    create(down) {
      const tables = new Map<string, DBCoreTable>();
      const table = (name: string) => {
        let wrapped = tables.get(name);
        if (!wrapped) tables.set(name, (wrapped = sealingTable(down.table(name), keys, opened, state)));
        return wrapped;
      };
      return { ...down, table };
    },
  };
}
