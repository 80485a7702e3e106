/**
 * Integrity rules the platform keeps whatever the client does (issue #12.3, #12.4):
 * - a cohort_code names one cohort: a create or update that would repeat one (ignoring case and
 *   surrounding spaces) is refused with 409 DUPLICATE_VALUE and `field: 'cohort_code'`;
 * - a program or site that cohorts still use cannot be deleted: 409 IN_USE, naming how many, so no
 *   cohort is left pointing at nothing ("Unknown program").
 * Both are read-then-write checks outside the store's transaction: two requests racing within a
 * few milliseconds could still both pass. A partial unique index would close that, but it cannot
 * be added to databases that already hold duplicates without a clean-up step first.
 */
import { HttpError } from '../errors';
import type { ServerContext } from './context';

const COHORT_CODE = 'cohort_code';

/** The code as written, trimmed; compared ignoring case. */
function codeOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Page size of the code listing: the store's largest page. */
const PAGE = 5000;

/** Every cohort's code key (trimmed, lower case) → the ids holding it: one listing of two fields. */
async function cohortsByCode(ctx: ServerContext): Promise<Map<string, string[]>> {
  const byCode = new Map<string, string[]>();
  for (let skip = 0; ; skip += PAGE) {
    const page = await ctx.store.list(ctx.appId, 'Cohort', { fields: ['id', COHORT_CODE], sort: 'id', limit: PAGE, skip });
    for (const cohort of page) {
      const code = codeOf(cohort[COHORT_CODE]);
      if (code) byCode.set(code.toLowerCase(), [...(byCode.get(code.toLowerCase()) ?? []), cohort.id]);
    }
    if (page.length < PAGE) return byCode;
  }
}

function duplicate(code: string): HttpError {
  return new HttpError(409, 'DUPLICATE_VALUE', `A cohort with the code ${code} already exists. Cohort codes must be unique.`, {
    field: COHORT_CODE,
  });
}

/**
 * Refuses cohort codes already taken by another cohort, or repeated within one request.
 * `rows` are the records being created or the patches being applied (with their id for updates).
 */
export async function checkCohortCodes(ctx: ServerContext, entity: string, rows: Array<Record<string, unknown> & { id?: string }>): Promise<void> {
  if (entity !== 'Cohort') return;
  const coded = rows.flatMap((row) => {
    const code = codeOf(row[COHORT_CODE]);
    return code ? [{ row, code }] : [];
  });
  if (coded.length === 0) return;
  const taken = await cohortsByCode(ctx);
  const seen = new Set<string>();
  for (const { row, code } of coded) {
    const key = code.toLowerCase();
    if (seen.has(key)) throw duplicate(code);
    seen.add(key);
    if ((taken.get(key) ?? []).some((id) => id !== row.id)) throw duplicate(code);
  }
}

const REFERENCE: Record<string, { field: string; noun: string }> = {
  Program: { field: 'program_id', noun: 'program' },
  Site: { field: 'site_id', noun: 'site' },
};

/** Refuses deleting a program or site while cohorts reference it; the message says how many. */
export async function checkNotInUse(ctx: ServerContext, entity: string, id: string): Promise<void> {
  const ref = REFERENCE[entity];
  if (!ref) return;
  const count = await ctx.store.count(ctx.appId, 'Cohort', { [ref.field]: id });
  if (count === 0) return;
  const cohorts = count === 1 ? '1 cohort uses' : `${count} cohorts use`;
  throw new HttpError(409, 'IN_USE', `${cohorts} this ${ref.noun}. Move or delete ${count === 1 ? 'it' : 'them'} first.`, {
    cohort_count: count,
  });
}
