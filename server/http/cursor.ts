/**
 * The opaque v2/list cursor: base64url JSON of the query, sort, fields and the next offset. A later
 * page needs only the cursor; sending a different q, sort or fields with it is a 400, so a caller
 * cannot silently mix two listings.
 */
import { HttpError } from '../errors';
import { checkFilter } from './filter-check';
import { parseFields, parseSort, MAX_SKIP } from './list-params';
import type { Filter } from '../store/types';

export interface CursorState {
  q?: Filter;
  sort?: string;
  fields?: string[];
  offset: number;
}

const bad = () => new HttpError(400, 'INVALID_CURSOR', 'The cursor is not valid');

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify({ v: 1, ...state })).toString('base64url');
}

export function decodeCursor(raw: string): CursorState {
  if (raw.length > 200_000 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw bad();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.v !== 1) throw bad();
  const { q, sort, fields, offset } = parsed;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0 || offset > MAX_SKIP) throw bad();
  if (q !== undefined) checkFilter(q);
  if (sort !== undefined && (typeof sort !== 'string' || parseSort(sort) !== sort)) throw bad();
  if (fields !== undefined && (!Array.isArray(fields) || parseFields(fields.join(','))?.join(',') !== fields.join(','))) throw bad();
  return { q: q as Filter | undefined, sort: sort as string | undefined, fields: fields as string[] | undefined, offset };
}

/**
 * Same listing? Compares what the caller sent with a later page against what the cursor carries;
 * a parameter not sent is the cursor's (a later page may send the cursor alone).
 */
export function sameListing(sent: Omit<CursorState, 'offset'>, cursor: Omit<CursorState, 'offset'>): boolean {
  const same = (k: 'q' | 'sort' | 'fields') => sent[k] === undefined || JSON.stringify(sent[k]) === JSON.stringify(cursor[k]);
  return same('q') && same('sort') && same('fields');
}
