/**
 * Reads list parameters (q, sort, limit, skip, fields) from a query string, as the SDK sends them
 * (platform-contract.md 2 and 7). Anything malformed is a 400; nothing here touches the store.
 */
import { HttpError } from '../errors';
import { checkFilter, FIELD_PATH } from './filter-check';
import type { Filter } from '../store/types';

export const MAX_LIMIT = 5000; // the platform's documented maximum per request
export const MAX_SKIP = 10_000_000;

export interface ListParams {
  q?: Filter;
  sort?: string;
  limit?: number;
  skip?: number;
  fields?: string[];
  /** Top-level fields referred to by q and sort (for the permission check). */
  touched: string[];
}

const bad = (message: string, code = 'BAD_REQUEST') => new HttpError(400, code, message);

export function parseFilter(raw: string | undefined): Filter | undefined {
  if (raw === undefined || raw === '') return undefined;
  // 100 KB of filter text is far beyond any real query (a 500-id $in list is ~20 KB).
  if (raw.length > 100_000) throw bad('q is too long', 'INVALID_QUERY');
  let q: unknown;
  try {
    q = JSON.parse(raw);
  } catch {
    throw bad('q must be valid JSON', 'INVALID_QUERY');
  }
  checkFilter(q);
  return q as Filter;
}

export function parseSort(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const field = raw.replace(/^[-+ ]/, ''); // axios sends '+' which arrives as ' '
  if (!FIELD_PATH.test(field)) throw bad(`Invalid sort field: ${raw.slice(0, 40)}`);
  return raw.startsWith('-') ? `-${field}` : field;
}

export function parseCount(raw: string | undefined, name: string, max: number): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,12}$/.test(raw)) throw bad(`${name} must be a whole number`);
  const n = Number(raw);
  // Over the maximum is clamped, not refused: callers asking for "everything" get the largest page.
  return Math.min(n, max);
}

export function parseFields(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const fields = [...new Set(raw.split(',').map((f) => f.trim()).filter(Boolean))];
  if (fields.length > 200) throw bad('Too many fields');
  for (const f of fields) if (!FIELD_PATH.test(f)) throw bad(`Invalid field name: ${f.slice(0, 40)}`);
  return fields.length ? fields : undefined;
}

export function touchedFields(q: Filter | undefined, sort: string | undefined): string[] {
  const touched = new Set(q ? checkFilter(q) : []);
  if (sort) touched.add(sort.replace(/^-/, '').split('.')[0]);
  return [...touched];
}

export function parseListParams(get: (name: string) => string | undefined): ListParams {
  const q = parseFilter(get('q'));
  const sort = parseSort(get('sort'));
  return {
    q,
    sort,
    limit: parseCount(get('limit'), 'limit', MAX_LIMIT),
    skip: parseCount(get('skip'), 'skip', MAX_SKIP),
    fields: parseFields(get('fields')),
    touched: touchedFields(q, sort),
  };
}
