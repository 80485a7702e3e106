/**
 * The rest of a list query: sort, limit/skip and projection (platform-contract.md section 7).
 * - sort: `f`, `+f` or `-f` on one field; default `-created_date`; ties broken by id in the same
 *   direction, so a page boundary is always well defined. Values of mixed JSON types sort by type
 *   first (missing/null < numbers < strings < objects < arrays < booleans, MongoDB's order), then
 *   numbers numerically and strings byte-wise (ISO dates chronologically).
 * - limit: default 5000, the platform's page size; at most 5001 (a page plus one row, so a caller
 *   such as v2/list can tell whether another page follows); larger limits are clamped, 0 means the
 *   default (the SDK never sends 0), a negative or fractional one is a 400.
 * - skip: a non-negative integer.
 * - fields: top-level fields to return (`a.b` returns all of `a`); `id` is always included.
 */
import { badRequest } from './errors';
import { COLUMN_FIELDS, Params, jsonAt, parseFieldPath, textAt } from './sql-parts';

export const DEFAULT_LIMIT = 5000;
export const MAX_LIMIT = DEFAULT_LIMIT + 1;

export function orderBy(sort: string | undefined): string {
  const spec = (sort ?? '').trim() || '-created_date';
  const desc = spec.startsWith('-');
  const name = spec.startsWith('-') || spec.startsWith('+') ? spec.slice(1).trim() : spec;
  const path = parseFieldPath(name);
  const dir = desc ? 'DESC' : 'ASC';
  if (path.length === 1 && COLUMN_FIELDS.has(path[0])) {
    return path[0] === 'id' ? `id ${dir}` : `${path[0]} ${dir}, id ${dir}`;
  }
  const t = { base: 'data', path };
  const x = jsonAt(t);
  const type = `jsonb_typeof(${x})`;
  return [
    `CASE ${type} WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 ELSE 0 END ${dir}`,
    `CASE WHEN ${type} = 'number' THEN (${x})::numeric END ${dir}`,
    `CASE WHEN ${type} = 'string' THEN ${textAt(t)} END COLLATE "C" ${dir}`,
    `CASE WHEN ${type} IN ('object', 'array', 'boolean') THEN ${x} END ${dir}`,
    `id ${dir}`,
  ].join(', ');
}

function nonNegativeInteger(name: string, v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw badRequest(`${name} must be a non-negative integer`);
  }
  return v;
}

export function limitOf(limit: unknown): number {
  const n = nonNegativeInteger('limit', limit);
  return !n ? DEFAULT_LIMIT : Math.min(n, MAX_LIMIT);
}

export function skipOf(skip: unknown): number {
  return nonNegativeInteger('skip', skip) ?? 0;
}

/** The SQL expression returning each row's (possibly projected) record. */
export function projection(fields: string[] | undefined, p: Params): string {
  if (!fields || fields.length === 0) return 'data';
  if (!Array.isArray(fields)) throw badRequest('fields must be a list of field names');
  const top = [...new Set(fields.map((f) => parseFieldPath(f)[0]))];
  if (top.length === 1 && top[0] === 'id') return `jsonb_build_object('id', id)`;
  return (
    `COALESCE((SELECT jsonb_object_agg(key, value) FROM jsonb_each(data) WHERE key = ANY(${p.add(top)}::text[])), '{}'::jsonb)` +
    ` || jsonb_build_object('id', id)`
  );
}
