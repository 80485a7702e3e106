/**
 * The opened-rows cache of the sealing middleware (issue #14.1, ./middleware.ts): opened rows
 * of the table read whole (participants), kept while the same key is in memory. A list page
 * re-reads all 10,000 participants whenever it opens or a row changes, and AES-GCM in JavaScript
 * takes ~45 µs a row (~0.45 s, ~1.8 s on a tablet 4× slower): a row whose stored ciphertext is the
 * one opened before (same IV and tag: every seal draws a fresh random IV, so a rewrite never
 * matches) is not opened again. Only rows whose opened fields are all plain values (strings,
 * numbers, booleans, null) are kept, so a reader that changes a row it got can never change what
 * the next reader sees. Rows this device seals (a pull's pages, an edit) are kept as written.
 * Dropped when the key goes (Lock, idle time, sign-out) or changes, and a row's entry when the row
 * is deleted. Outcomes are read a participant at a time: opening those few costs less than keeping
 * 20,000.
 */
import { IV_BYTES } from './cipher';

/** The tables whose opened rows are kept (the one read whole). */
export const CACHED_TABLES: ReadonlySet<string> = new Set(['participants']);
const TAG_BYTES = 16;
const MAX_CACHED_ROWS = 100_000;

type Row = Record<string, unknown>;

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

/** Whether `blob` is the ciphertext an entry with these ends opened. */
export function sameEnds(ends: Uint8Array, blob: Uint8Array): boolean {
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

/** Keep the opened fields of row `id`, sealed as `blob` (only when all are plain values). */
export function rememberOpened(rows: Map<unknown, OpenedEntry>, id: unknown, blob: Uint8Array, secret: Row): void {
  if (id === undefined || !allPlain(secret)) return;
  if (rows.size >= MAX_CACHED_ROWS) rows.clear();
  rows.set(id, { ends: endsOf(blob), secret });
}
