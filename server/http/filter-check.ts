/**
 * Structural check of a filter (platform-contract.md 2.1) before it reaches the store: only known
 * operators, field names of letters/digits/_/. and bounded size. The store checks again; this
 * layer exists so that bad input is always a 400 with a clear message, and so permissions can see
 * which fields a filter touches.
 */
import { HttpError } from '../errors';
import { filterRegexProblem, regexProblem } from '../store/regex-guard';

const SHAPE = /^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z0-9_]{1,64}){0,3}$/;
// Names that mean something to JavaScript objects: never a field, always an attack.
export const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** A field path: letters, digits and _, up to 4 dot-separated parts, none of them reserved. */
export const FIELD_PATH = {
  test: (path: string) => SHAPE.test(path) && !path.split('.').some((part) => RESERVED_NAMES.has(part)),
};
const LOGICAL = new Set(['$and', '$or', '$nor']);
const VALUE_OPS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$all', '$size', '$elemMatch', '$not', '$options']);
// Depth 8 and 500 nodes: far beyond any screen's query, small enough that a hostile filter cannot
// make the SQL builder or the planner work hard.
const MAX_DEPTH = 8;
const MAX_NODES = 500;

const bad = (message: string) => new HttpError(400, 'INVALID_QUERY', message);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Returns the field paths the filter refers to; throws 400 INVALID_QUERY on anything malformed. */
export function checkFilter(q: unknown): string[] {
  if (!isPlainObject(q)) throw bad('q must be a JSON object');
  const fields = new Set<string>();
  let nodes = 0;
  const count = () => {
    if (++nodes > MAX_NODES) throw bad('q is too large');
  };

  const walkQuery = (query: Record<string, unknown>, depth: number): void => {
    if (depth > MAX_DEPTH) throw bad('q is nested too deeply');
    for (const [key, value] of Object.entries(query)) {
      count();
      if (key.startsWith('$')) {
        if (!LOGICAL.has(key)) throw bad(`Unknown operator ${key.slice(0, 40)}`);
        if (!Array.isArray(value) || value.length === 0 || !value.every(isPlainObject)) {
          throw bad(`${key} takes a non-empty list of queries`);
        }
        for (const sub of value) walkQuery(sub, depth + 1);
        continue;
      }
      if (!FIELD_PATH.test(key)) throw bad(`Invalid field name in q: ${key.slice(0, 40)}`);
      fields.add(key.split('.')[0]);
      walkCondition(value, depth + 1);
    }
  };

  const walkValue = (value: unknown, depth: number): void => {
    count();
    if (depth > MAX_DEPTH) throw bad('q is nested too deeply');
    if (Array.isArray(value)) for (const v of value) walkValue(v, depth + 1);
    else if (isPlainObject(value)) for (const v of Object.values(value)) walkValue(v, depth + 1);
  };

  const walkCondition = (cond: unknown, depth: number): void => {
    if (!isPlainObject(cond) || !Object.keys(cond).some((k) => k.startsWith('$'))) {
      walkValue(cond, depth);
      return;
    }
    for (const [op, arg] of Object.entries(cond)) {
      count();
      if (!VALUE_OPS.has(op)) throw bad(`Unknown operator ${op.slice(0, 40)}`);
      if ((op === '$in' || op === '$nin' || op === '$all') && !Array.isArray(arg)) throw bad(`${op} takes a list`);
      if (op === '$exists' && typeof arg !== 'boolean') throw bad('$exists takes true or false');
      if ((op === '$regex' || op === '$options') && typeof arg !== 'string') throw bad(`${op} takes text`);
      if (op === '$regex') {
        const problem = regexProblem(arg as string);
        if (problem) throw bad(problem);
      }
      if (op === '$size' && !(typeof arg === 'number' && Number.isInteger(arg) && arg >= 0)) throw bad('$size takes a whole number');
      if (op === '$not' || op === '$elemMatch') {
        if (!isPlainObject(arg)) throw bad(`${op} takes an object`);
        if (op === '$elemMatch' && !Object.keys(arg).some((k) => k.startsWith('$'))) walkQuery(arg, depth + 1);
        else walkCondition(arg, depth + 1);
        continue;
      }
      walkValue(arg, depth + 1);
    }
  };

  walkQuery(q, 0);
  // Each pattern passed; together they must fit the same budget (issue #25.4).
  const problem = filterRegexProblem(q);
  if (problem) throw bad(problem);
  return [...fields];
}
