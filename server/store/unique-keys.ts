/**
 * Values the database keeps unique (issue #25.2), each by a partial unique expression index on
 * `records`, so two requests racing, on one server instance or several, can never both store one:
 * - a cohort's `cohort_code`, trimmed and in any case (issue #12.3): 409 DUPLICATE_VALUE;
 * - a user's `email`, in any case: 409 EMAIL_TAKEN (sign-up, invitations, the first administrator).
 * A create that would repeat one is skipped by the store's INSERT … ON CONFLICT DO NOTHING and then
 * refused here by name (postgres-store.ts `insert`); an update that would is refused from the
 * unique violation naming the index. The rule and its answer are those the routes gave before.
 *
 * An existing database may already hold duplicates (made by the read-then-write checks this
 * replaces): then the index is not created, a warning names the duplicated values, and the routes'
 * read-then-write checks remain the only guard until someone resolves them; the index is created
 * at the first start after that (schema.ts). Nothing is renamed or merged automatically: which of
 * two cohorts keeps a code, or which of two User records is the person, is a human decision.
 */
import { conflict, type StoreError } from './errors';

/** What JavaScript's String.prototype.trim removes, as a PostgreSQL escape string for btrim. */
const JS_WHITESPACE = `E' \\t\\n\\x0b\\f\\r\\u00a0\\u1680\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'`;

export interface UniqueKey {
  /** The index: PostgreSQL names it in a unique violation. */
  index: string;
  entity: string;
  field: string;
  /** The key of a text value `x` (an SQL expression), as the index computes it. */
  key: (x: string) => string;
  /** The index predicate besides the entity: records without a value are not keyed. */
  keyed: string;
  /** How the refusal reads; `value` as the caller wrote it (trimmed). */
  refuse: (value: string) => StoreError;
  /** For the start-up warning: what is duplicated, without personal data. */
  describe: (count: number) => string;
  /** Whether the warning may quote the values (cohort codes) or names record ids instead (e-mails). */
  quoteValues: boolean;
}

export const cohortCodeTaken = (code: string) => `A cohort with the code ${code} already exists. Cohort codes must be unique.`;

export const emailTaken = 'An account with this email already exists';

export const UNIQUE_KEYS: UniqueKey[] = [
  {
    index: 'records_cohort_code',
    entity: 'Cohort',
    field: 'cohort_code',
    key: (x) => `lower(btrim(${x}, ${JS_WHITESPACE}))`,
    keyed: `jsonb_typeof(data->'cohort_code') = 'string' AND btrim(data->>'cohort_code', ${JS_WHITESPACE}) <> ''`,
    refuse: (code) => conflict(cohortCodeTaken(code), 'DUPLICATE_VALUE', { field: 'cohort_code' }),
    describe: (n) => `${n === 1 ? '1 cohort code is' : `${n} cohort codes are`} used by more than one cohort (trimmed, any case)`,
    quoteValues: true,
  },
  {
    index: 'records_user_email',
    entity: 'User',
    field: 'email',
    key: (x) => `lower(${x})`,
    keyed: `jsonb_typeof(data->'email') = 'string'`,
    refuse: () => conflict(emailTaken, 'EMAIL_TAKEN', { field: 'email' }),
    describe: (n) => `${n === 1 ? '1 e-mail address is' : `${n} e-mail addresses are`} held by more than one User record`,
    quoteValues: false,
  },
];

/** The statement creating a key's index. */
export function uniqueIndexStatement(k: UniqueKey): string {
  return (
    `CREATE UNIQUE INDEX IF NOT EXISTS ${k.index} ON records (app, (${k.key(`data->>'${k.field}'`)}))` +
    ` WHERE entity = '${k.entity}' AND ${k.keyed}`
  );
}

/** The unique key a violation names (by its index), if it is one of these. */
export function uniqueKeyOf(err: unknown): UniqueKey | undefined {
  if ((err as { code?: unknown })?.code !== '23505') return undefined;
  // pg reports the index as `constraint`; PGlite only in the message ("… unique constraint "x"").
  const name = String((err as { constraint?: unknown }).constraint ?? (err as Error).message ?? '');
  return UNIQUE_KEYS.find((k) => name === k.index || name.includes(`"${k.index}"`));
}

/** The value of the key's field as written, trimmed; null when the record has none. */
export function valueOf(k: UniqueKey, record: Record<string, unknown>): string | null {
  const v = record[k.field];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}
