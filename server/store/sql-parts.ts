/**
 * Safe building blocks for generated SQL: a parameter list, validated field paths and the JSONB
 * expressions that read them. User input only ever reaches SQL as a parameter, except field names,
 * which must match FIELD_SEGMENT (letters, digits, underscore) before they are quoted as literals.
 * Literals (not parameters) are used for names so that expressions such as `data -> 'participant_id'`
 * stay identical across queries and can match expression indexes.
 */
import { badRequest } from './errors';

export class Params {
  readonly values: unknown[] = [];
  /** Appends a value and returns its placeholder (`$3`). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const FIELD_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Deeper paths are never needed by Passage's entities; the cap keeps generated SQL small. */
const MAX_PATH_SEGMENTS = 8;

/** Splits and validates `a.b.c`; anything else is a 400 naming the field. */
export function parseFieldPath(name: unknown): string[] {
  if (typeof name !== 'string' || name.length === 0 || name.length > 200) {
    throw badRequest(`Invalid field name: ${JSON.stringify(name)}`);
  }
  const segments = name.split('.');
  if (segments.length > MAX_PATH_SEGMENTS || !segments.every((s) => FIELD_SEGMENT.test(s))) {
    throw badRequest(`Invalid field name: ${JSON.stringify(name)}`);
  }
  return segments;
}

/** A validated segment as an SQL string literal (the regex already excludes quotes). */
const lit = (segment: string) => `'${segment.replace(/'/g, "''")}'`;

/** Where a filter looks: the record's `data` column, or an array element inside `$elemMatch`. */
export interface Target {
  /** SQL expression of type jsonb holding the object the path starts from. */
  base: string;
  path: string[];
}

/** The jsonb value at the target (SQL NULL when the key is missing). */
export function jsonAt(t: Target): string {
  return t.path.reduce((expr, s) => `${expr}->${lit(s)}`, t.base);
}

/** The value as text (`->>` on the last step), for string comparisons and regexes. */
export function textAt(t: Target): string {
  if (t.path.length === 0) return `(${t.base} #>> '{}')`;
  const head = t.path.slice(0, -1).reduce((expr, s) => `${expr}->${lit(s)}`, t.base);
  return `(${head}->>${lit(t.path[t.path.length - 1])})`;
}

/** Builds `{a: {b: value}}` for a path `a.b`, the shape jsonb containment (`@>`) expects. */
export function nestValue(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, s) => ({ [s]: inner }), value);
}

/**
 * The platform fields with their own columns (COLLATE "C", indexed): comparisons on them use the
 * column so `updated_date >= cursor` (every incremental pull, sync rule S5) is an index range scan.
 */
export const COLUMN_FIELDS = new Set(['id', 'created_date', 'updated_date']);

export function columnFor(t: Target): string | null {
  return t.base === 'data' && t.path.length === 1 && COLUMN_FIELDS.has(t.path[0]) ? t.path[0] : null;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
