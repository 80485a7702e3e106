import type { DBCoreMutateRequest } from 'dexie';
import { PLAIN_ROWS_KEY, SEAL_FORMAT, SEAL_FORMAT_KEY } from './policy';

/**
 * The seal state of the sealing middleware (issue #21, ./middleware.ts): which stored rows may
 * still read without a current seal (the markers in meta), and the rows that did not open here
 * (planted, moved), which reads leave out and log rather than return as real data.
 */

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
export const DROPPED: unique symbol = Symbol('dropped');
/** A stored row as a read sees it: opened, or DROPPED. */
export type Opened = Row | typeof DROPPED;

const warned = new Set<string>();

/** Mark a row as not opening here, log it (once per row and reason), and answer DROPPED. */
export function drop(state: SealState, table: string, primaryKey: unknown, why: string): typeof DROPPED {
  state.markDropped(table, primaryKey);
  const note = `${table}:${String(primaryKey)}:${why}`;
  if (!warned.has(note)) {
    if (warned.size > 1000) warned.clear();
    warned.add(note);
    console.warn(`Passage: a stored ${table} row (${String(primaryKey)}) was left out: ${why}`);
  }
  return DROPPED;
}

/** Follow the markers of SealState as this connection writes or deletes them (meta). */
export function followMarkers(req: DBCoreMutateRequest, state: SealState): void {
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
