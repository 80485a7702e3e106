/**
 * `participantDuplicates` (issue #23.7): while a coach adds a participant, the people the whole
 * academy may already hold under them — the same CDCR number (as a key, shared/participant-keys.ts,
 * through its expression index) or the same date of birth (an exact value, through the GIN index) —
 * so a tablet that holds only its sites learns of a person at another site. The tablet keeps those
 * with a similar name (src/domain/duplicate-candidates.ts); the server does not judge names.
 *
 * The typed values travel in the POST body, never in a URL. Each match comes with the fields a
 * coach needs to recognise the person (no contact or custody details) and where they are enrolled
 * (cohort code, site name), all of which a coach may read (the permission table).
 */
import type { Context } from 'hono';
import { UID_FIELD } from '../../shared/config';
import { cdcrKey } from '../../shared/participant-keys';
import { HttpError } from '../errors';
import type { EntityRecord } from '../store/types';
import { authorize, type ServerContext } from './context';
import { visibleProjection } from './entity-guards';

/** Matches answered at most (each rule). */
export const DUPLICATES_LIMIT = 20;

/** What a match shows of a participant. */
const FIELDS = ['id', UID_FIELD, 'first_name', 'middle_name', 'last_name', 'date_of_birth', 'cdcr_number'];

export interface DuplicatePlace {
  cohort_code: string | null;
  site_name: string | null;
}

function textOf(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 100) throw new HttpError(400, 'BAD_REQUEST', `${field} must be text of at most 100 characters`);
  return value;
}

function pick(record: EntityRecord, fields: readonly string[]): EntityRecord {
  return Object.fromEntries(fields.filter((f) => f in record).map((f) => [f, record[f]])) as EntityRecord;
}

export async function participantDuplicates(ctx: ServerContext, c: Context, body: Record<string, unknown>) {
  const { decision } = await authorize(ctx, c, 'read', 'Participant');
  const cdcr = cdcrKey(textOf(body, 'cdcr_number'));
  const dobText = textOf(body, 'date_of_birth');
  const dob = dobText && /^\d{4}-\d{2}-\d{2}$/.test(dobText) ? dobText : null;
  if (dobText && !dob) throw new HttpError(400, 'BAD_REQUEST', 'date_of_birth must be YYYY-MM-DD');
  const fields = visibleProjection(FIELDS, decision.visibleFields) ?? FIELDS;

  const [byCdcr, byDob] = await Promise.all([
    cdcr ? ctx.store.participantsByCdcrKey(ctx.appId, [cdcr], DUPLICATES_LIMIT) : [],
    dob ? ctx.store.list(ctx.appId, 'Participant', { q: { date_of_birth: dob }, sort: 'created_date', limit: DUPLICATES_LIMIT }) : [],
  ]);
  const found = new Map<string, EntityRecord>();
  for (const record of [...byCdcr, ...byDob]) if (!found.has(record.id)) found.set(record.id, pick(record, fields));
  const places = await placesOf(ctx, c, [...found.keys()]);
  return { matches: [...found.values()].map((participant) => ({ participant, places: places.get(participant.id) ?? [] })) };
}

/** Where each participant is enrolled: their cohorts' codes and sites' names. */
async function placesOf(ctx: ServerContext, c: Context, ids: string[]): Promise<Map<string, DuplicatePlace[]>> {
  const out = new Map<string, DuplicatePlace[]>();
  if (ids.length === 0) return out;
  await authorize(ctx, c, 'read', 'Enrollment');
  await authorize(ctx, c, 'read', 'Cohort');
  await authorize(ctx, c, 'read', 'Site');
  const enrollments = await ctx.store.list(ctx.appId, 'Enrollment', { q: { participant_id: { $in: ids } }, fields: ['participant_id', 'cohort_id'], limit: 500 });
  const cohortIds = [...new Set(enrollments.map((e) => String(e.cohort_id ?? '')).filter(Boolean))];
  const cohorts = cohortIds.length ? await ctx.store.list(ctx.appId, 'Cohort', { q: { id: { $in: cohortIds } }, fields: ['cohort_code', 'site_id'], limit: 500 }) : [];
  const siteIds = [...new Set(cohorts.map((x) => String(x.site_id ?? '')).filter(Boolean))];
  const sites = siteIds.length ? await ctx.store.list(ctx.appId, 'Site', { q: { id: { $in: siteIds } }, fields: ['site_name'], limit: 500 }) : [];
  const cohortById = new Map(cohorts.map((x) => [x.id, x]));
  const siteById = new Map(sites.map((s) => [s.id, s]));
  for (const e of enrollments) {
    const cohort = cohortById.get(String(e.cohort_id));
    const site = cohort ? siteById.get(String(cohort.site_id)) : undefined;
    const place = { cohort_code: typeof cohort?.cohort_code === 'string' ? cohort.cohort_code : null, site_name: typeof site?.site_name === 'string' ? site.site_name : null };
    const id = String(e.participant_id);
    out.set(id, [...(out.get(id) ?? []), place]);
  }
  return out;
}
