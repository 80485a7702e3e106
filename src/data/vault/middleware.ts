import type { DBCore, DBCoreCursor, DBCoreMutateRequest, DBCoreTable, Middleware } from 'dexie';
import { IV_BYTES, openJson, placeOf, sealJson } from './cipher';
import { CLEAR_FIELDS, PLAIN_ROWS_KEY, SEAL_FORMAT, SEAL_FORMAT_KEY, SEALED_FIELD, SEALED_META_KEYS } from './policy';
import { VaultLockedError } from './errors';

/**
 * The encryption layer (issue #14.1): a Dexie DBCore middleware at the bottom of the stack, right
 * above IndexedDB, so commands, queries, the engine and Dexie's own live-query tracking see plain
 * rows and only the stored copy is sealed.
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
export interface KeySource {
  /** The data key while unlocked; null while locked. */
  key(): Uint8Array | null;
  /** Called when the key changes (unlock, lock): the opened rows below are dropped at once. */
  subscribe?(listener: () => void): () => void;
}

type Row = Record<string, unknown>;

/**
 * What this device's stored rows may still hold besides current seals: plain rows from before
 * version 3 (`plainRows`), seals without AAD from before issue #21 (`legacySeals`). Read from meta
 * when the database opens (`load`, from db.on('ready')), and followed as this connection writes or
 * deletes the markers. Before that, plain rows are refused; seals without AAD open (only a device
 * that made them under this data key has any).
 */
export class SealState {
  plainRows = false;
  legacySeals = true;
  /**
   * Primary keys of rows this connection found that do not open (planted, moved): primary-key
   * reads (primaryKeys(), and so Dexie's modify, which reads keys first and then calls its
   * function on each row) leave them out too once seen. Forgotten when the row is written or
   * deleted here.
   */
  readonly #dropped = new Map<string, Set<unknown>>();

  markDropped(table: string, primaryKey: unknown): void {
    let keys = this.#dropped.get(table);
    if (!keys) this.#dropped.set(table, (keys = new Set()));
    if (keys.size < 10_000) keys.add(primaryKey);
  }

  isDropped(table: string, primaryKey: unknown): boolean {
    return this.#dropped.get(table)?.has(primaryKey) ?? false;
  }

  hasDropped(table: string): boolean {
    return (this.#dropped.get(table)?.size ?? 0) > 0;
  }

  forgetDropped(table: string, keys: readonly unknown[] | null): void {
    const known = this.#dropped.get(table);
    if (!known) return;
    if (keys === null) known.clear();
    else for (const key of keys) known.delete(key);
  }

  /** Read the markers (db.on('ready'): before any other request of this connection). */
  async load(meta: { get(key: string): PromiseLike<unknown> }): Promise<void> {
    const plain = await meta.get(PLAIN_ROWS_KEY);
    const format = (await meta.get(SEAL_FORMAT_KEY)) as { value?: unknown } | undefined;
    this.plainRows = !!plain;
    this.legacySeals = !(typeof format?.value === 'number' && format.value >= SEAL_FORMAT);
  }
}

/** A stored row that did not open here: left out of what reads return. */
const DROPPED: unique symbol = Symbol('dropped');
type Opened = Row | typeof DROPPED;

const warned = new Set<string>();

function drop(state: SealState, table: string, primaryKey: unknown, why: string): typeof DROPPED {
  state.markDropped(table, primaryKey);
  const note = `${table}:${String(primaryKey)}:${why}`;
  if (!warned.has(note)) {
    if (warned.size > 1000) warned.clear();
    warned.add(note);
    console.warn(`Passage: a stored ${table} row (${String(primaryKey)}) was left out: ${why}`);
  }
  return DROPPED;
}

/**
 * Bytes of any realm: IndexedDB hands back a Uint8Array of the realm that stored it (a test's
 * jsdom window and Node's fake-indexeddb are two), so `instanceof` is not the test.
 */
function isBytes(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]';
}

function sealOf(row: Row): Uint8Array | null | undefined {
  const value = row[SEALED_FIELD];
  if (isBytes(value)) return value;
  return value === null ? null : undefined;
}

function needKey(keys: KeySource, table: string): Uint8Array {
  const key = keys.key();
  if (!key) throw new VaultLockedError(table);
  return key;
}

/**
 * Seal a row of a table with a clear-field list; `aad` is its place (`placeOf(table, primary key)`).
 * A row with no personal field still gets a seal (of {}): every stored row of a sealed table proves
 * it was written here, in this place.
 */
export function sealRow(key: Uint8Array, clear: ReadonlySet<string>, row: Row, aad: Uint8Array): Row {
  return sealRowParts(key, clear, row, aad).stored;
}

/** The stored row and the fields it seals (null when none). */
function sealRowParts(key: Uint8Array, clear: ReadonlySet<string>, row: Row, aad: Uint8Array): { stored: Row; secret: Row | null } {
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
  out[SEALED_FIELD] = sealJson(key, secret, aad);
  return { stored: out, secret: any ? secret : null };
}

export interface OpenRowOptions {
  /** The table's clear fields: any other field stored beside the seal is not the row's (planted). */
  clear?: ReadonlySet<string>;
  /** A table's opened rows (see OpenedRows). */
  rows?: Map<unknown, OpenedEntry>;
  /** Whether a seal from before issue #21 (no AAD, or `_enc: null`) may open. */
  legacy?: boolean;
}

/**
 * The plain row of a stored one, sealed at `aad` (its place). Throws when the seal does not open
 * there (another key, a changed byte, a value moved from another row or table). With `rows` (a
 * table's opened rows, see OpenedRows), a row whose stored ciphertext was opened before is not
 * opened again, and one opened now is kept.
 */
export function openRow(key: Uint8Array, row: Row, aad: Uint8Array, options: OpenRowOptions = {}): Row {
  const { clear: clearFields, rows, legacy = true } = options;
  const { [SEALED_FIELD]: sealed, ...stored } = row;
  const clear = clearFields ? onlyClear(stored, clearFields) : stored;
  if (sealed === null && legacy) return clear;
  if (!isBytes(sealed)) throw new Error('The row has no seal');
  const hit = rows && row.id !== undefined ? rows.get(row.id) : undefined;
  if (hit && sameEnds(hit.ends, sealed)) return { ...clear, ...hit.secret };
  const secret = openJson<Row>(key, sealed, aad, { legacy });
  if (!secret || typeof secret !== 'object' || Array.isArray(secret)) throw new Error('The seal does not hold a row');
  if (rows) rememberOpened(rows, row.id, sealed, secret);
  return { ...clear, ...secret };
}

function onlyClear(stored: Row, clear: ReadonlySet<string>): Row {
  for (const field in stored) {
    if (!clear.has(field)) {
      const out: Row = {};
      for (const f in stored) if (clear.has(f)) out[f] = stored[f];
      return out;
    }
  }
  return stored;
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

export interface OpenedEntry {
  /** The IV and tag of the ciphertext this entry opened. */
  ends: Uint8Array;
  secret: Row;
}

export class OpenedRows {
  #key: Uint8Array | null = null;
  readonly #tables = new Map<string, Map<unknown, OpenedEntry>>();

  /** The cache of `table` for `key` (emptied first when the key is not the one it was filled with). */
  table(name: string, key: Uint8Array): Map<unknown, OpenedEntry> {
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

/** The IV and tag (a current seal's IV follows its format byte; comparing its first 12 bytes is as good). */
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

function rememberOpened(rows: Map<unknown, OpenedEntry>, id: unknown, blob: Uint8Array, secret: Row): void {
  if (id === undefined || !allPlain(secret)) return;
  if (rows.size >= MAX_CACHED_ROWS) rows.clear();
  rows.set(id, { ends: endsOf(blob), secret });
}

function sealMeta(key: Uint8Array, row: Row): Row {
  return { key: row.key, [SEALED_FIELD]: sealJson(key, row.value ?? null, placeOf('meta', row.key)) };
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
    // One decryption per position: filters and Dexie's modify read `value` more than once.
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

/** Follow the markers of SealState as this connection writes or deletes them (meta). */
function followMarkers(req: DBCoreMutateRequest, state: SealState): void {
  if (req.type === 'deleteRange') {
    state.plainRows = false;
  } else if (req.type === 'delete') {
    if (req.keys.includes(PLAIN_ROWS_KEY)) state.plainRows = false;
    if (req.keys.includes(SEAL_FORMAT_KEY)) state.legacySeals = true;
  } else if (req.type === 'add' || req.type === 'put') {
    for (const row of req.values as Row[]) {
      if (row?.key === PLAIN_ROWS_KEY) state.plainRows = true;
      if (row?.key === SEAL_FORMAT_KEY) state.legacySeals = !(typeof row.value === 'number' && row.value >= SEAL_FORMAT);
    }
  }
}

function encryptingTable(table: DBCoreTable, keys: KeySource, opened: OpenedRows, state: SealState): DBCoreTable {
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

export function encryptionMiddleware(keys: KeySource, opened = new OpenedRows(), state = new SealState()): Middleware<DBCore> {
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
        if (!wrapped) tables.set(name, (wrapped = encryptingTable(down.table(name), keys, opened, state)));
        return wrapped;
      };
      return { ...down, table };
    },
  };
}
