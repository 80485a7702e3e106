/**
 * Checks a create or update body against the known fields (entity-schema.ts) and returns the data
 * to store: server-kept fields removed, everything else as sent. Problems throw 422 naming the field.
 */
import { HttpError, unprocessable } from '../errors';
import { RESERVED_NAMES } from './filter-check';
import { ENTITY_FIELDS, REQUIRED_FIELDS, SERVER_FIELDS, USER_SERVER_FIELDS, type FieldType } from '../../shared/entity-schema';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
// 64 KB per text field: a bio or notes field, never a document; keeps one record well under 1 MB.
const MAX_TEXT = 64 * 1024;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

// 16 levels of nested lists/objects inside one field: far beyond any real record, and well inside
// what JSON.stringify and PostgreSQL's jsonb handle without deep recursion.
const MAX_DEPTH = 16;

function tooDeep(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= MAX_DEPTH) return true;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (tooDeep(v, depth + 1)) return true;
  return false;
}

const invalid = (field: string, message: string) => unprocessable(message, field);

function realDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}

function isDate(value: string, allowDateOnly: boolean): boolean {
  const only = DATE_ONLY.exec(value);
  if (only) return allowDateOnly && realDate(only[1], only[2], only[3]);
  const full = DATE_TIME.exec(value);
  return !!full && realDate(full[1], full[2], full[3]) && !Number.isNaN(Date.parse(value));
}

function checkValue(field: string, type: FieldType, value: unknown): void {
  if (value === null) return;
  switch (type.kind) {
    case 'string':
      if (typeof value !== 'string') throw invalid(field, `${field} must be text`);
      if (value.length > MAX_TEXT) throw invalid(field, `${field} is too long`);
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(field, `${field} must be a whole number`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(field, `${field} must be true or false`);
      return;
    case 'date':
    case 'datetime':
      if (typeof value !== 'string' || !isDate(value, true)) {
        throw invalid(field, `${field} must be a date (YYYY-MM-DD or an ISO 8601 date-time)`);
      }
      return;
    case 'enum':
      if (typeof value !== 'string' || !type.values.includes(value)) {
        throw invalid(field, `${field} must be one of: ${type.values.join(', ')}`);
      }
      return;
    case 'strings':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.length > MAX_TEXT)) {
        throw invalid(field, `${field} must be a list of text values`);
      }
      return;
    case 'url':
      if (typeof value !== 'string' || (value !== '' && !/^https?:\/\/[^\s]+$/i.test(value))) {
        throw invalid(field, `${field} must be a web address starting with http:// or https://`);
      }
      return;
    default: {
      const never: never = type;
      throw new Error(`unknown field type ${JSON.stringify(never)}`);
    }
  }
}

/** `mode` create enforces required fields; update only checks what is present. */
export function validateRecord(entity: string, body: unknown, mode: 'create' | 'update'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'BAD_REQUEST', 'The body must be a JSON object');
  }
  // Own properties only: a body field named toString or valueOf must not find Object.prototype's.
  const known: Record<string, FieldType> = Object.hasOwn(ENTITY_FIELDS, entity)
    ? (ENTITY_FIELDS as Record<string, Record<string, FieldType>>)[entity]
    : {};
  const drop = new Set<string>([...SERVER_FIELDS, ...(entity === 'User' ? USER_SERVER_FIELDS : [])]);
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (drop.has(field)) continue;
    if (!FIELD_NAME.test(field) || RESERVED_NAMES.has(field)) throw invalid(field.slice(0, 64), `Field names must be letters, digits and _ (got "${field.slice(0, 64)}")`);
    const type = Object.hasOwn(known, field) ? known[field] : undefined;
    if (type) checkValue(field, type, value);
    else if (tooDeep(value)) throw invalid(field, `${field} is nested too deeply`);
    if (value === undefined) continue;
    out[field] = value;
  }
  for (const field of Object.hasOwn(REQUIRED_FIELDS, entity) ? REQUIRED_FIELDS[entity] : []) {
    const value = Object.hasOwn(out, field) ? out[field] : undefined;
    const missing = typeof value !== 'string' || value.trim() === '';
    if ((mode === 'create' && missing) || (mode === 'update' && field in out && missing)) {
      throw invalid(field, `${field} is required`);
    }
  }
  return out;
}
