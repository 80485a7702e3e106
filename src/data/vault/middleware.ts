import type { DBCore, DBCoreCursor, DBCoreTable, Middleware } from 'dexie';
import { IV_BYTES, openJson, sealJson } from './cipher';
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
  /** Called when the key changes (unlock, lock): the opened rows below are dropped at once. */
  subscribe?(listener: () => void): () => void;
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
  return sealRowParts(key, clear, row).stored;
}

/** The stored row and the fields it seals (null when none). */
function sealRowParts(key: Uint8Array, clear: ReadonlySet<string>, row: Row): { stored: Row; secret: Row | null } {
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
  return { stored: out, secret: any ? secret : null };
}

/**
 * The plain row of a stored one. With `rows` (a table's opened rows, see OpenedRows), a row whose
 * stored ciphertext was opened before is not opened again, and one opened now is kept.
 */
export function openRow(key: Uint8Array, row: Row, rows?: Map<unknown, Opened>): Row {
  const { [SEALED_FIELD]: sealed, ...clear } = row;
  if (!sealed) return clear;
  const blob = sealed as Uint8Array;
  const hit = rows && row.id !== undefined ? rows.get(row.id) : undefined;
  if (hit && sameEnds(hit.ends, blob)) return { ...clear, ...hit.secret };
  const secret = openJson<Row>(key, blob);
  if (rows) rememberOpened(rows, row.id, blob, secret);
  return { ...clear, ...secret };
}

/**
 * Opened rows of the table read whole (participants), kept while the same key is in memory. A
 * list page re-reads all 10,000 participants whenever it opens or a row changes, and AES-GCM in
 * JavaScript takes ~45 µs a row (~0.45 s, ~1.8 s on a tablet 4× slower): a row whose stored
 * ciphertext is the one opened before (same IV and tag: every seal draws a fresh random IV, so a
 * rewrite never matches) is not opened again. Only rows whose opened fields are all plain values
 * (strings, numbers, booleans, null) are kept, so a reader that changes a row it got can never
 * change what the next reader sees. Rows this device seals (a pull's pages, an edit) are kept as
 * written. Dropped when the key goes (Lock, idle time, sign-out) or changes, and a row's entry
 * when the row is deleted. Outcomes are read a participant at a time: opening those few costs
 * less than keeping 20,000.
 */
const CACHED_TABLES: ReadonlySet<string> = new Set(['participants']);
const TAG_BYTES = 16;
const MAX_CACHED_ROWS = 100_000;

interface Opened {
  /** The IV and tag of the ciphertext this entry opened. */
  ends: Uint8Array;
  secret: Row;
}

export class OpenedRows {
  #key: Uint8Array | null = null;
  readonly #tables = new Map<string, Map<unknown, Opened>>();

  /** The cache of `table` for `key` (emptied first when the key is not the one it was filled with). */
  table(name: string, key: Uint8Array): Map<unknown, Opened> {
    if (key !== this.#key) {
      this.clear();
      this.#key = key;
    }
    let rows = this.#tables.get(name);
    if (!rows) this.#tables.set(name, (rows = new Map()));
    return rows;
  }

  forget(name: string, ids: readonly unknown[] | null): void {
    const rows = this.#tables.get(name);
    if (!rows) return;
    if (ids === null) rows.clear();
    else for (const id of ids) rows.delete(id);
  }

  clear(): void {
    for (const rows of this.#tables.values()) rows.clear();
    this.#tables.clear();
    this.#key = null;
  }

  get size(): number {
    let n = 0;
    for (const rows of this.#tables.values()) n += rows.size;
    return n;
  }
}

function endsOf(blob: Uint8Array): Uint8Array {
  const ends = new Uint8Array(IV_BYTES + TAG_BYTES);
  ends.set(blob.subarray(0, IV_BYTES), 0);
  ends.set(blob.subarray(blob.length - TAG_BYTES), IV_BYTES);
  return ends;
}

function sameEnds(ends: Uint8Array, blob: Uint8Array): boolean {
  if (blob.length < IV_BYTES + TAG_BYTES) return false;
  for (let i = 0; i < IV_BYTES; i++) if (ends[i] !== blob[i]) return false;
  const tail = blob.length - TAG_BYTES;
  for (let i = 0; i < TAG_BYTES; i++) if (ends[IV_BYTES + i] !== blob[tail + i]) return false;
  return true;
}

function allPlain(secret: Row): boolean {
  for (const value of Object.values(secret)) if (value !== null && typeof value === 'object') return false;
  return true;
}

function rememberOpened(rows: Map<unknown, Opened>, id: unknown, blob: Uint8Array, secret: Row): void {
  if (id === undefined || !allPlain(secret)) return;
  if (rows.size >= MAX_CACHED_ROWS) rows.clear();
  rows.set(id, { ends: endsOf(blob), secret });
}

function sealMeta(key: Uint8Array, row: Row): Row {
  if (!SEALED_META_KEYS.has(row.key as string)) return row;
  return { key: row.key, [SEALED_FIELD]: sealJson(key, row.value ?? null) };
}

function openMeta(key: Uint8Array, row: Row): Row {
  return { key: row.key, value: openJson(key, row[SEALED_FIELD] as Uint8Array) };
}

function codec(name: string, keys: KeySource, opened: OpenedRows) {
  const clear = CLEAR_FIELDS[name];
  if (name === 'meta') {
    return {
      seal: (row: Row) => (SEALED_META_KEYS.has(row.key as string) ? sealMeta(needKey(keys, name), row) : row),
      open: (row: Row) => (isSealed(row) ? openMeta(needKey(keys, name), row) : row),
    };
  }
  if (!clear) return null;
  const cached = CACHED_TABLES.has(name);
  const open = (row: Row): Row => {
    if (!isSealed(row)) return row;
    const key = needKey(keys, name);
    return openRow(key, row, cached ? opened.table(name, key) : undefined);
  };
  const seal = (row: Row): Row => {
    const key = needKey(keys, name);
    if (!cached) return sealRow(key, clear, row);
    // What this device writes (a pull's pages, a coach's edit) is known in the clear already: the
    // next read of the row does not open it again.
    const { stored, secret } = sealRowParts(key, clear, row);
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

function encryptingTable(table: DBCoreTable, keys: KeySource, opened: OpenedRows): DBCoreTable {
  const c = codec(table.name, keys, opened);
  if (!c) return table;
  const openAll = (values: unknown[]) => values.map((v) => (v && typeof v === 'object' ? c.open(v as Row) : v));
  // `.then` on the promise the layer below returns, never async/await: Dexie's promises carry the
  // transaction zone (PSD) to the caller's continuation; a native promise would drop it.
  return {
    ...table,
    mutate(req) {
      if (req.type === 'delete') opened.forget(table.name, req.keys);
      if (req.type === 'deleteRange') opened.forget(table.name, null);
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

export function encryptionMiddleware(keys: KeySource, opened = new OpenedRows()): Middleware<DBCore> {
  // The opened rows go with the key, at once: nothing decrypted outlives a lock in this cache.
  keys.subscribe?.(() => opened.clear());
  return {
    stack: 'dbcore',
    name: 'PassageEncryption',
    // Below Dexie's own layers (cache, observability: level 0, -1): they see plain rows.
    level: -10,
    create(down) {
      const tables = new Map<string, DBCoreTable>();
      const table = (name: string) => {
        let wrapped = tables.get(name);
        if (!wrapped) tables.set(name, (wrapped = encryptingTable(down.table(name), keys, opened)));
        return wrapped;
      };
      return { ...down, table };
    },
  };
}
