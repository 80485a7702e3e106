/**
 * Integrity rules the platform keeps whatever the client does (issue #12.3, #12.4):
 * - a cohort_code names one cohort: a create or update that would repeat one (ignoring case and
 *   surrounding spaces) is refused with 409 DUPLICATE_VALUE and `field: 'cohort_code'`;
 * - a program or site that cohorts still use cannot be deleted: 409 IN_USE, naming how many, so no
 *   cohort is left pointing at nothing ("Unknown program").
 * Both are read-then-write checks outside the store's transaction. Cohort codes are also unique
 * in the database (issue #25.2, store/unique-keys.ts: the same rule and the same answer), so two
 * requests racing cannot both store one; this check answers first, and it is the only guard on a
 * database that already held duplicates (the index waits until they are resolved). The IN_USE
 * check stays read-then-write: a cohort created while its program is deleted could still race.
 */
import { UID_FIELD } from '../../shared/config';
import { cdcrKey, DIFFERENT_PERSON_FIELD } from '../../shared/participant-keys';
import { HttpError } from '../errors';
import { cohortCodeTaken } from '../store/unique-keys';
import type { EntityRecord } from '../store/types';
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
  return new HttpError(409, 'DUPLICATE_VALUE', cohortCodeTaken(code), {
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

/** What a record's delete must wait for: the child records that point at it (issue #12.4, #23). */
const IN_USE: Record<string, { child: string; field: string; message: (n: number) => string; extra: string }> = {
  Program: { child: 'Cohort', field: 'program_id', message: (n) => `${cohorts(n)} this program. Move or delete ${them(n)} first.`, extra: 'cohort_count' },
  Site: { child: 'Cohort', field: 'site_id', message: (n) => `${cohorts(n)} this site. Move or delete ${them(n)} first.`, extra: 'cohort_count' },
  Session: {
    child: 'Attendance',
    field: 'session_id',
    message: (n) => `Attendance was taken at this session (${n === 1 ? '1 record' : `${n} records`}). A session with attendance cannot be deleted.`,
    extra: 'attendance_count',
  },
};
const cohorts = (n: number) => (n === 1 ? '1 cohort uses' : `${n} cohorts use`);
const them = (n: number) => (n === 1 ? 'it' : 'them');

/** Refuses deleting a program or site while cohorts reference it, or a session with attendance. */
export async function checkNotInUse(ctx: ServerContext, entity: string, id: string): Promise<void> {
  const rule = IN_USE[entity];
  if (!rule) return;
  const count = await ctx.store.count(ctx.appId, rule.child, { [rule.field]: id });
  if (count === 0) return;
  throw new HttpError(409, 'IN_USE', rule.message(count), { [rule.extra]: count });
}

const CDCR = 'cdcr_number';
/** Held participants read per check at most: a CDCR number is meant to name one person. */
const MAX_HELD = 1000;
/** UIDs named in the message at most. */
const MAX_NAMED = 3;

function possibleDuplicate(matches: EntityRecord[]): HttpError {
  const named = matches.slice(0, MAX_NAMED).map((m) => (typeof m[UID_FIELD] === 'string' && m[UID_FIELD] ? `UID ${m[UID_FIELD]}` : `record ${m.id}`));
  const more = matches.length > MAX_NAMED ? ` and ${matches.length - MAX_NAMED} more` : '';
  const which = named.length ? ` (${named.join(', ')}${more})` : ' in this request';
  return new HttpError(
    409,
    'POSSIBLE_DUPLICATE',
    `A participant with this CDCR number already exists${which}. Open it to check, or mark this one as a different person.`,
    { field: CDCR, duplicate_ids: matches.map((m) => m.id) },
  );
}

/**
 * Issue #23.7: a participant create whose CDCR number (as a key: case, spaces and dashes do not
 * count) another participant already has is refused with 409 POSSIBLE_DUPLICATE, naming the
 * match's UID (no other personal data) and `duplicate_ids`, unless the create lists those ids in
 * `different_person_from` (the coach reviewed them and said another person): never a silent second
 * record. A create re-sent with the client_ref of the stored record is its own answer (S3), not a
 * duplicate. Two creates of one request with one number: the second is refused (no id to name
 * yet; the tablet then sends them one by one). Updates are not checked: the rule is the intake's.
 * Read-then-write, like the cohort codes: two creates racing within milliseconds could both pass.
 */
export async function checkPossibleDuplicates(ctx: ServerContext, entity: string, rows: Array<Record<string, unknown>>): Promise<void> {
  if (entity !== 'Participant') return;
  const keyed = rows.flatMap((row) => {
    const key = cdcrKey(row[CDCR]);
    return key ? [{ row, key }] : [];
  });
  if (keyed.length === 0) return;
  const held = await ctx.store.participantsByCdcrKey(ctx.appId, [...new Set(keyed.map((k) => k.key))], MAX_HELD);
  const byKey = new Map<string, EntityRecord[]>();
  for (const record of held) {
    const key = cdcrKey(record[CDCR]);
    if (key) byKey.set(key, [...(byKey.get(key) ?? []), record]);
  }
  const seen = new Set<string>();
  for (const { row, key } of keyed) {
    const same = byKey.get(key) ?? [];
    if (typeof row.client_ref === 'string' && same.some((r) => r.client_ref === row.client_ref)) continue;
    const cleared = new Set(Array.isArray(row[DIFFERENT_PERSON_FIELD]) ? (row[DIFFERENT_PERSON_FIELD] as unknown[]) : []);
    const matches = same.filter((r) => !cleared.has(r.id));
    if (matches.length > 0) throw possibleDuplicate(matches);
    if (seen.has(key)) throw possibleDuplicate([]);
    seen.add(key);
  }
}
