/**
 * The filter language of platform-contract.md 2.1, compiled to a parameterised SQL condition over the
 * `data` jsonb column. Semantics follow MongoDB's, which the platform's docs link to:
 * - `{f: v}` matches when f equals v (JSON types: 5 ≠ "5") or f is an array containing v;
 *   `{f: [a, b]}` is the contract's shorthand for `$in`; `{f: null}` matches null or missing.
 * - `$gt $gte $lt $lte` take a number (compared numerically with numbers) or a string (compared
 *   byte-wise, so ISO dates order correctly); values of another JSON type never match.
 * - `$ne`, `$nin` and `$not` also match records where the field is missing.
 * Every leaf yields TRUE or FALSE, never SQL NULL, so NOT and NOR behave.
 * Anything else (unknown operators such as `$where`, wrong operand types, bad field names) is a 400.
 */
import { badRequest } from './errors';
import { filterRegexProblem, regexProblem } from './regex-guard';
import { Params, Target, columnFor, isPlainObject, jsonAt, nestValue, parseFieldPath, textAt } from './sql-parts';

/** Deeper nesting is never legitimate; the cap bounds SQL size and planner work (a DoS guard). */
const MAX_DEPTH = 12;
const FIELD_OPERATORS = new Set([
  '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options', '$not',
  '$all', '$size', '$elemMatch',
]);
const COMPARISONS: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** Compiles `q` (already parsed JSON) to an SQL condition on `data`; `undefined` means everything. */
export function compileFilter(q: unknown, params: Params): string {
  if (q === undefined || q === null) return 'TRUE';
  // Every $regex of the query runs on each row: their cost together is bounded (issue #25.4).
  const problem = filterRegexProblem(q);
  if (problem) throw badRequest(problem, 'INVALID_QUERY');
  return compileQuery(q, params, 'data', 0);
}

function compileQuery(q: unknown, p: Params, base: string, depth: number): string {
  if (!isPlainObject(q)) throw badRequest('The query must be a JSON object');
  if (depth > MAX_DEPTH) throw badRequest(`The query is nested more than ${MAX_DEPTH} levels deep`);
  const clauses = Object.entries(q).map(([key, value]) => {
    if (key === '$and' || key === '$or' || key === '$nor') return compileLogical(key, value, p, base, depth);
    if (key.startsWith('$')) throw badRequest(`Unknown operator ${key}`);
    return compileField({ base, path: parseFieldPath(key) }, value, p, depth);
  });
  return joinAnd(clauses);
}

function compileLogical(op: string, value: unknown, p: Params, base: string, depth: number): string {
  if (!Array.isArray(value) || value.length === 0) throw badRequest(`${op} needs a non-empty array of queries`);
  const parts = value.map((sub) => `(${compileQuery(sub, p, base, depth + 1)})`);
  if (op === '$and') return parts.join(' AND ');
  if (op === '$or') return parts.join(' OR ');
  return `NOT (${parts.join(' OR ')})`;
}

/** Callers always parenthesise the result, so a single clause needs no extra parentheses. */
function joinAnd(clauses: string[]): string {
  if (clauses.length === 0) return 'TRUE';
  return clauses.length === 1 ? clauses[0] : clauses.map((c) => `(${c})`).join(' AND ');
}

/** An object whose keys are all operators; mixing operators and plain keys is ambiguous → 400. */
function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  const ops = keys.filter((k) => k.startsWith('$')).length;
  if (ops > 0 && ops < keys.length) throw badRequest('Do not mix operators and field names in one condition');
  return ops > 0;
}

function compileField(t: Target, cond: unknown, p: Params, depth: number): string {
  if (isOperatorObject(cond)) return compileOperators(t, cond, p, depth);
  if (Array.isArray(cond)) return inClause(t, cond, p);
  return equals(t, cond, p);
}

function compileOperators(t: Target, ops: Record<string, unknown>, p: Params, depth: number): string {
  if (depth > MAX_DEPTH) throw badRequest(`The query is nested more than ${MAX_DEPTH} levels deep`);
  if ('$options' in ops && !('$regex' in ops)) throw badRequest('$options needs $regex');
  const clauses = Object.entries(ops).filter(([op]) => op !== '$options').map(([op, v]) => {
    if (!FIELD_OPERATORS.has(op)) throw badRequest(`Unknown operator ${op}`);
    switch (op) {
      case '$eq': return Array.isArray(v) ? sameJson(t, v, p) : equals(t, v, p);
      case '$ne': return `NOT (${Array.isArray(v) ? sameJson(t, v, p) : equals(t, v, p)})`;
      case '$in': return inClause(t, needArray(op, v), p);
      case '$nin': return `NOT (${inClause(t, needArray(op, v), p)})`;
      case '$exists': return exists(t, v);
      case '$regex': return regex(t, v, ops.$options, p);
      case '$not': {
        if (!isOperatorObject(v)) throw badRequest('$not needs an object of operators, e.g. {"$not": {"$gt": 5}}');
        return `NOT (${compileOperators(t, v, p, depth + 1)})`;
      }
      case '$all': return all(t, needArray(op, v), p);
      case '$size': return size(t, v, p);
      case '$elemMatch': return elemMatch(t, v, p, depth);
      default: return compare(t, op, v, p);
    }
  });
  return joinAnd(clauses);
}

function needArray(op: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) throw badRequest(`${op} needs an array`);
  return v;
}

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * Equality: null → null or missing; an object → the same JSON; a scalar → equal, or an element of an
 * array field. Scalars use containment (`data @> '{"f": v}'`), which the GIN index on data answers.
 */
function equals(t: Target, v: unknown, p: Params): string {
  if (v === null) return isNull(t);
  if (isScalar(v)) return anyOfScalars(t, [v], p);
  if (isPlainObject(v)) return sameJson(t, v, p);
  throw badRequest(`Unsupported value ${JSON.stringify(v)}`);
}

function isNull(t: Target): string {
  const col = columnFor(t);
  if (col) return 'FALSE';
  const x = jsonAt(t);
  return `(${x} IS NULL OR ${x} = 'null'::jsonb)`;
}

/** Exact JSON equality (arrays and objects as a whole; numbers compare numerically). */
function sameJson(t: Target, v: unknown, p: Params): string {
  return `COALESCE(${jsonAt(t)} = ${p.add(JSON.stringify(v))}::jsonb, FALSE)`;
}

/**
 * Up to this many values, equality uses the GIN index (two probes per value). Beyond it, probing
 * and rechecking cost more than one pass over the entity: 500 participant ids against 30,000
 * enrollments took 1.4–2.9 s as containment and 50–75 ms as a hashed `= ANY` scan.
 */
const INDEXED_VALUES_MAX = 16;

function anyOfScalars(t: Target, values: unknown[], p: Params): string {
  const col = columnFor(t);
  if (col) {
    const strings = values.filter((v) => typeof v === 'string');
    return strings.length ? `${col} = ANY(${p.add(strings)}::text[])` : 'FALSE';
  }
  if (t.path.length > 0 && values.length <= INDEXED_VALUES_MAX) {
    // `{f: v}` (field equals v) or `{f: [v]}` (array field containing v), for each value; a bitmap
    // scan on the GIN index answers `@> ANY(array)` with one probe per element.
    const docs = values.flatMap((v) => [nestValue(t.path, v), nestValue(t.path, [v])]).map((d) => JSON.stringify(d));
    return `${t.base} @> ANY(${p.add(docs)}::jsonb[])`;
  }
  // The same meaning without the index: the value is one of them, or an array holding one of them
  // (the element scan only runs for array values).
  const x = jsonAt(t);
  const list = p.add(values.map((v) => JSON.stringify(v)));
  return (
    `COALESCE(${x} = ANY(${list}::jsonb[]), FALSE) OR (CASE WHEN jsonb_typeof(${x}) = 'array' THEN ` +
    `EXISTS (SELECT 1 FROM jsonb_array_elements(${x}) AS el(v) WHERE el.v = ANY(${list}::jsonb[])) ELSE FALSE END)`
  );
}

function inClause(t: Target, values: unknown[], p: Params): string {
  const scalars = values.filter(isScalar);
  const parts: string[] = [];
  if (scalars.length) parts.push(anyOfScalars(t, scalars, p));
  if (values.includes(null)) parts.push(isNull(t));
  for (const v of values) {
    if (isScalar(v) || v === null) continue;
    if (isPlainObject(v) || Array.isArray(v)) parts.push(sameJson(t, v, p));
    else throw badRequest(`Unsupported value ${JSON.stringify(v)}`);
  }
  if (parts.length === 0) return 'FALSE';
  return parts.length === 1 ? parts[0] : parts.map((c) => `(${c})`).join(' OR ');
}

function exists(t: Target, v: unknown): string {
  if (typeof v !== 'boolean') throw badRequest('$exists needs true or false');
  if (columnFor(t)) return v ? 'TRUE' : 'FALSE';
  return v ? `(${jsonAt(t)} IS NOT NULL)` : `(${jsonAt(t)} IS NULL)`;
}

function compare(t: Target, op: string, v: unknown, p: Params): string {
  const sqlOp = COMPARISONS[op];
  const col = columnFor(t);
  if (typeof v === 'number') {
    if (col) return 'FALSE'; // platform columns hold strings only
    const x = jsonAt(t);
    return `CASE WHEN jsonb_typeof(${x}) = 'number' THEN (${x})::numeric ${sqlOp} ${p.add(v)}::numeric ELSE FALSE END`;
  }
  if (typeof v === 'string') {
    if (col) return `${col} ${sqlOp} ${p.add(v)}`;
    const x = jsonAt(t);
    return `CASE WHEN jsonb_typeof(${x}) = 'string' THEN ${textAt(t)} COLLATE "C" ${sqlOp} ${p.add(v)} ELSE FALSE END`;
  }
  throw badRequest(`${op} needs a number or a string`);
}

function regex(t: Target, v: unknown, options: unknown, p: Params): string {
  if (typeof v !== 'string') throw badRequest('$regex needs a string');
  if (options !== undefined && options !== '' && options !== 'i') {
    throw badRequest('$options supports only "i" (case-insensitive)');
  }
  // Bounded before SQL: PostgreSQL's regex compiler blows up on nested or large counted repetition.
  const problem = regexProblem(v);
  if (problem) throw badRequest(problem, 'INVALID_QUERY');
  const op = options === 'i' ? '~*' : '~';
  const col = columnFor(t);
  if (col) return `${col} ${op} ${p.add(v)}`;
  const x = jsonAt(t);
  return `CASE WHEN jsonb_typeof(${x}) = 'string' THEN ${textAt(t)} ${op} ${p.add(v)} ELSE FALSE END`;
}

function all(t: Target, values: unknown[], p: Params): string {
  if (values.length === 0) return 'FALSE';
  const x = jsonAt(t);
  return `CASE WHEN jsonb_typeof(${x}) = 'array' THEN ${x} @> ${p.add(JSON.stringify(values))}::jsonb ELSE FALSE END`;
}

function size(t: Target, v: unknown, p: Params): string {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw badRequest('$size needs a non-negative integer');
  const x = jsonAt(t);
  return `CASE WHEN jsonb_typeof(${x}) = 'array' THEN jsonb_array_length(${x}) = ${p.add(v)}::int ELSE FALSE END`;
}

/** True when some element of the array field matches: operators on the element, or a sub-query. */
function elemMatch(t: Target, v: unknown, p: Params, depth: number): string {
  if (!isPlainObject(v)) throw badRequest('$elemMatch needs an object');
  const alias = `e${depth + 1}`;
  const x = jsonAt(t);
  const element = `${alias}.v`;
  const keys = Object.keys(v);
  const onElementItself = keys.length > 0 && keys.every((k) => k.startsWith('$') && FIELD_OPERATORS.has(k));
  const cond = onElementItself
    ? compileOperators({ base: element, path: [] }, v, p, depth + 1)
    : compileQuery(v, p, element, depth + 1);
  return `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${x}) = 'array' THEN ${x} ELSE '[]'::jsonb END) AS ${alias}(v) WHERE ${cond})`;
}
