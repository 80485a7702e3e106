/** Small checks shared by the entity routes: known entity names, sane ids, coach projections. */
import { HttpError, forbidden, notFound } from '../errors';
import { ENTITIES } from '../auth/permissions';
import type { EntityRecord, Filter } from '../store/types';

const KNOWN = new Set<string>(ENTITIES);
// 200 characters: our ids are UUID-sized; anything longer is not an id we issued.
const MAX_ID = 200;

export function checkEntity(entity: string): string {
  if (!KNOWN.has(entity)) throw new HttpError(404, 'ENTITY_NOT_FOUND', `Unknown entity: ${entity.slice(0, 60)}`);
  return entity;
}

/** An id we could have issued; anything else cannot exist, so it is simply not found. */
export function checkId(id: string): string {
  if (id.length === 0 || id.length > MAX_ID || [...id].some(unsafeInId)) throw notFound();
  return id;
}

/** Control characters (C0 and DEL) and path separators never appear in an id. */
function unsafeInId(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code <= 0x1f || code === 0x7f || ch === '/' || ch === '\\';
}

export function project(record: EntityRecord, fields: readonly string[] | undefined): EntityRecord {
  if (!fields) return record;
  const out: Record<string, unknown> = { id: record.id };
  for (const f of fields) if (f in record) out[f] = record[f];
  return out as EntityRecord;
}

/** For a caller limited to some fields: what they asked for within what they may see. */
export function visibleProjection(requested: string[] | undefined, visible: readonly string[] | undefined): string[] | undefined {
  if (!visible) return requested;
  if (!requested) return [...visible];
  const allowed = requested.filter((f) => visible.includes(f));
  return allowed.length ? allowed : ['id'];
}

export function checkTouched(touched: string[], visible: readonly string[] | undefined): void {
  if (!visible) return;
  const hidden = touched.find((f) => !visible.includes(f));
  if (hidden) throw forbidden(`You may not filter or sort users by ${hidden}`);
}

/**
 * A caller limited to some User fields (a coach) lists approved users and admins only: the Lead
 * Coach picker offers approved coaches (issue #12.8), and people whose access is pending, refused
 * or disabled are not shown to other coaches.
 */
export function scopeUserListing(entity: string, visible: readonly string[] | undefined, q: Filter | undefined): Filter | undefined {
  if (entity !== 'User' || !visible) return q;
  const approvedOnly: Filter = { $or: [{ approved: true }, { role: 'admin' }], disabled: { $ne: true } };
  return q ? { $and: [q, approvedOnly] } : approvedOnly;
}

/**
 * The same rule for one record (the change feed, issue #24.1): whether a caller limited to some
 * User fields lists this user. Kept beside scopeUserListing so the two never differ.
 */
export function listsUser(visible: readonly string[] | undefined, user: EntityRecord): boolean {
  if (!visible) return true;
  return (user.approved === true || user.role === 'admin') && user.disabled !== true;
}
