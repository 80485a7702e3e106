import type { DBCore, DBCoreCursor, DBCoreTable, Middleware } from 'dexie';
import { openJson, sealJson } from './cipher';
import { CLEAR_FIELDS, SEALED_FIELD, SEALED_META_KEYS } from './policy';
import { VaultLockedError } from './errors';

/**
 * The encryption layer (issue #14.1): a Dexie DBCore middleware at the bottom of the stack, right
 * above IndexedDB, so commands, queries, the engine and Dexie's own live-query tracking see plain
 * rows and only the stored copy is sealed. Rows written before encryption (no `_enc`) read as they
 * are; `encryptExistingRows` rewrites them once a key exists.
 */
export interface KeySource {
  /** The data key while unlocked; null while locked. */
  key(): Uint8Array | null;
}

type Row = Record<string, unknown>;

function isSealed(row: unknown): row is Row {
  return !!row && typeof row === 'object' && SEALED_FIELD in (row as Row);
}

function needKey(keys: KeySource, table: string): Uint8Array {
  const key = keys.key();
  if (!key) throw new VaultLockedError(table);
  return key;
}

/** Seal a row of a table with a clear-field list. */
export function sealRow(key: Uint8Array, clear: ReadonlySet<string>, row: Row): Row {
  const out: Row = {};
  const secret: Row = {};
  let any = false;
  for (const [field, value] of Object.entries(row)) {
    if (clear.has(field)) out[field] = value;
    else if (value !== undefined) {
      secret[field] = value;
      any = true;
    }
  }
  out[SEALED_FIELD] = any ? sealJson(key, secret) : null;
  return out;
}

export function openRow(key: Uint8Array, row: Row): Row {
  const { [SEALED_FIELD]: sealed, ...clear } = row;
  if (!sealed) return clear;
  return { ...clear, ...openJson<Row>(key, sealed as Uint8Array) };
}

function sealMeta(key: Uint8Array, row: Row): Row {
  if (!SEALED_META_KEYS.has(row.key as string)) return row;
  return { key: row.key, [SEALED_FIELD]: sealJson(key, row.value ?? null) };
}

function openMeta(key: Uint8Array, row: Row): Row {
  return { key: row.key, value: openJson(key, row[SEALED_FIELD] as Uint8Array) };
}

function codec(name: string, keys: KeySource) {
  const clear = CLEAR_FIELDS[name];
  if (name === 'meta') {
    return {
      seal: (row: Row) => (SEALED_META_KEYS.has(row.key as string) ? sealMeta(needKey(keys, name), row) : row),
      open: (row: Row) => (isSealed(row) ? openMeta(needKey(keys, name), row) : row),
    };
  }
  if (!clear) return null;
  return {
    seal: (row: Row) => sealRow(needKey(keys, name), clear, row),
    open: (row: Row) => (isSealed(row) ? openRow(needKey(keys, name), row) : row),
  };
}

/**
 * A cursor whose `value` is the opened row. Everything else is forwarded by hand, each read at
 * call time: in a browser the cursor below is a native IDBCursor (with Dexie's methods added), and
 * native getters and methods throw "Illegal invocation" when reached through a prototype chain.
 */
function wrapCursor(cursor: DBCoreCursor, open: (row: Row) => Row): DBCoreCursor {
  let seenFor: unknown = undefined;
  let seenRaw: unknown = undefined;
  let opened: unknown = undefined;
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
      const raw = cursor.value;
      // One decryption per position: filters and Dexie's modify read `value` more than once.
      if (raw !== seenRaw || cursor.primaryKey !== seenFor) {
        seenRaw = raw;
        seenFor = cursor.primaryKey;
        opened = raw && typeof raw === 'object' ? open(raw as Row) : raw;
      }
      return opened;
    },
    continue: (key?: unknown) => (key === undefined ? cursor.continue() : cursor.continue(key)),
    continuePrimaryKey: (key: unknown, primaryKey: unknown) => cursor.continuePrimaryKey(key, primaryKey),
    advance: (count: number) => cursor.advance(count),
    start: (onNext: () => void) => cursor.start(onNext),
    stop: (value?: unknown) => cursor.stop(value),
    next: () => cursor.next().then(() => wrapper),
    fail: (error: Error) => cursor.fail(error),
  };
  return wrapper;
}

function encryptingTable(table: DBCoreTable, keys: KeySource): DBCoreTable {
  const c = codec(table.name, keys);
  if (!c) return table;
  const openAll = (values: unknown[]) => values.map((v) => (v && typeof v === 'object' ? c.open(v as Row) : v));
  // `.then` on the promise the layer below returns, never async/await: Dexie's promises carry the
  // transaction zone (PSD) to the caller's continuation; a native promise would drop it.
  return {
    ...table,
    mutate(req) {
      if (req.type !== 'add' && req.type !== 'put') return table.mutate(req);
      return table.mutate({ ...req, values: req.values.map((v) => c.seal(v as Row)) });
    },
    get(req) {
      return table.get(req).then((row) => (row && typeof row === 'object' ? c.open(row as Row) : row));
    },
    getMany(req) {
      return table.getMany(req).then(openAll);
    },
    query(req) {
      return table.query(req).then((res) => (req.values ? { ...res, result: openAll(res.result) } : res));
    },
    openCursor(req) {
      return table.openCursor(req).then((cursor) => (cursor && req.values !== false ? wrapCursor(cursor, c.open) : cursor));
    },
  };
}

export function encryptionMiddleware(keys: KeySource): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'PassageEncryption',
    // Below Dexie's own layers (cache, observability: level 0, -1): they see plain rows.
    level: -10,
    create(down) {
      const tables = new Map<string, DBCoreTable>();
      const table = (name: string) => {
        let wrapped = tables.get(name);
        if (!wrapped) tables.set(name, (wrapped = encryptingTable(down.table(name), keys)));
        return wrapped;
      };
      return { ...down, table };
    },
  };
}
