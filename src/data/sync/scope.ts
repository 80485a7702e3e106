/**
 * Issue #22: what one tablet holds (pure rules; the engine runs them in scoped-pull.ts).
 *
 * A tablet holds its user's sites, not the whole academy. Whole on every tablet: programs, sites
 * and the coach directory (a few hundred rows that name things). By site: cohorts of the sites in
 * scope, their sessions and enrollments; the participants of those enrollments and their outcomes.
 * Besides: records a person opened from beyond the scope (kept for OPENED_TTL_MS) and every
 * participant this tablet created or changed while it has no enrollment anywhere, so a new intake
 * never vanishes because it is not enrolled yet. A record with queued changes always stays.
 */
import type { EntityName } from '../../../shared/entities';
import { isTempId } from './references';

/** meta key of the person's choice on "Sites on this tablet" (sites added to and removed from their default). */
export const SITE_CHOICE_KEY = 'siteChoice';
/** meta key of the scope the engine derived last (what the screens say they count). */
export const TABLET_SCOPE_KEY = 'tabletScope';

export interface SiteChoice {
  /** The choice is this user's: another person signing in on the tablet starts from their own default. */
  userId: string;
  added: string[];
  removed: string[];
}

export interface TabletScope {
  userId: string;
  /** Every site, pulled without filters: an administrator's default (desktops are online). */
  all: boolean;
  /** The sites whose cohorts this tablet holds (every known site when `all`). */
  siteIds: string[];
  /** The sites of the user's own cohorts (lead or support), or every site for an administrator. */
  defaultSiteIds: string[];
  /** When the engine derived it (its clock). */
  derivedAt: number;
}

/** Who the scope is for: given by the runtime from the signed-in user. */
export interface ScopeOwner {
  email: string;
  /** Administrators hold every site by default. */
  everySite: boolean;
}

/**
 * A record kept beyond the scope: opened online (until `until`), or this tablet's own unenrolled
 * intake. Keyed by [entity+id+reason]: one record may hold both.
 */
export interface PinRow {
  entity: EntityName;
  id: string;
  reason: 'opened' | 'own';
  /** Epoch ms after which an 'opened' pin lapses; null for 'own' (kept while it has no enrollment). */
  until: number | null;
}

/** Long enough to work with an opened participant offline later that day (PowerSync's subscription TTL). */
export const OPENED_TTL_MS = 24 * 60 * 60 * 1000;

/** The entities held by site: pulled with filters, in this order (each one's keys come from the one before). */
export const SCOPED_ORDER: readonly EntityName[] = ['Cohort', 'Enrollment', 'Session', 'Participant', 'Outcome'];

export function isScoped(entity: EntityName): boolean {
  return SCOPED_ORDER.includes(entity);
}

/**
 * The sites this tablet holds: the default (the user's cohorts' sites, or every site for an
 * administrator) plus the sites the person added, minus those they removed; sites the server no
 * longer has are left out. `all` (unfiltered pulls) only while an administrator keeps every site.
 */
export function deriveScope(input: {
  owner: ScopeOwner;
  /** Site ids of the cohorts the user leads or supports (server and tablet). */
  ownCohortSites: readonly string[];
  /** Every site the tablet knows (the whole Site table). */
  knownSites: readonly string[];
  choice: SiteChoice | null;
  userId: string;
  now: number;
}): TabletScope {
  const known = new Set(input.knownSites);
  const choice = input.choice && input.choice.userId === input.userId ? input.choice : null;
  const defaults = input.owner.everySite ? [...known] : unique(input.ownCohortSites.filter((s) => known.has(s)));
  const removed = new Set(choice?.removed ?? []);
  const sites = unique([...defaults, ...(choice?.added ?? []).filter((s) => known.has(s))]).filter((s) => !removed.has(s));
  const all = input.owner.everySite && !(choice?.removed ?? []).some((s) => known.has(s));
  return { userId: input.userId, all, siteIds: all ? [...known].sort() : sites.sort(), defaultSiteIds: defaults.sort(), derivedAt: input.now };
}

/** The choice that makes `wanted` the tablet's sites, as additions to and removals from the default. */
export function choiceFor(userId: string, defaults: readonly string[], wanted: readonly string[]): SiteChoice {
  const d = new Set(defaults);
  const w = new Set(wanted);
  return { userId, added: [...w].filter((s) => !d.has(s)).sort(), removed: [...d].filter((s) => !w.has(s)).sort() };
}

/** A scope key: rows whose `field` is one of `ids` are in scope. */
export interface ScopeKey {
  field: string;
  ids: string[];
}

/** What the mirror holds that decides each entity's keys (read by the engine after each stage). */
export interface ScopeFacts {
  siteIds: readonly string[];
  /** Cohorts in the mirror: id and site. */
  cohorts: ReadonlyArray<{ id: string; site_id?: string | null }>;
  /** Enrollments in the mirror: their participant and cohort. */
  enrollments: ReadonlyArray<{ id: string; participant_id?: string | null; cohort_id?: string | null }>;
  /** Participant ids in the mirror (for outcomes). */
  participantIds: readonly string[];
  /** Live pins (lapsed ones already left out), ids resolved through aliases. */
  pins: ReadonlyArray<Pick<PinRow, 'entity' | 'id' | 'reason'>>;
}

/**
 * The keys of one scoped entity, from what the mirror holds after the stages before it. Sessions
 * and enrollments follow the cohorts of the sites in scope only (a cohort kept to name an opened
 * participant's enrollment elsewhere brings nothing else); a pinned participant brings its own
 * enrollments, wherever they are.
 */
export function scopeKeys(entity: EntityName, facts: ScopeFacts): ScopeKey[] {
  const sites = new Set(facts.siteIds);
  const siteCohorts = facts.cohorts.filter((c) => c.site_id != null && sites.has(c.site_id)).map((c) => c.id);
  const pinned = (e: EntityName) => facts.pins.filter((p) => p.entity === e).map((p) => p.id);
  const keys = (field: string, ids: Iterable<string>): ScopeKey => ({ field, ids: serverIds(ids) });
  switch (entity) {
    case 'Cohort':
      return [keys('site_id', facts.siteIds), keys('id', pinned('Cohort'))];
    case 'Session':
      return [keys('cohort_id', siteCohorts)];
    case 'Enrollment':
      return [keys('cohort_id', siteCohorts), keys('participant_id', pinned('Participant'))];
    case 'Participant': {
      const ids = facts.enrollments.map((e) => e.participant_id).filter((id): id is string => !!id);
      return [keys('id', [...ids, ...pinned('Participant')])];
    }
    case 'Outcome':
      return [keys('participant_id', facts.participantIds)];
    default:
      return [];
  }
}

/** Whether a mirror row matches any of the keys. */
export function matchesKeys(row: Record<string, unknown>, keys: readonly ScopeKey[], sets = keySets(keys)): boolean {
  return keys.some((k) => sets.get(k.field)?.has(row[k.field] as string) ?? false);
}

export function keySets(keys: readonly ScopeKey[]): Map<string, Set<string>> {
  const sets = new Map<string, Set<string>>();
  for (const k of keys) {
    const set = sets.get(k.field) ?? new Set<string>();
    for (const id of k.ids) set.add(id);
    sets.set(k.field, set);
  }
  return sets;
}

/** Keys as flat strings ("field:id"): what a cursor covers, stored with it (syncState.scope_keys). */
export function flatKeys(keys: readonly ScopeKey[]): string[] {
  return unique(keys.flatMap((k) => k.ids.map((id) => `${k.field}:${id}`))).sort();
}

/** Keys back from flat strings, grouped by field. */
export function fromFlat(flat: Iterable<string>): ScopeKey[] {
  const byField = new Map<string, string[]>();
  for (const key of flat) {
    const at = key.indexOf(':');
    const field = key.slice(0, at);
    byField.set(field, [...(byField.get(field) ?? []), key.slice(at + 1)]);
  }
  return [...byField].map(([field, ids]) => ({ field, ids }));
}

/**
 * Split what the keys cover into what the cursor already covers (pulled incrementally) and what
 * is new (pulled from the start): a grown scope brings rows last changed long before the cursor.
 */
export function splitKeys(current: readonly ScopeKey[], covered: readonly string[] | null): { known: ScopeKey[]; added: ScopeKey[] } {
  if (covered === null) return { known: current.filter((k) => k.ids.length > 0), added: [] };
  const had = new Set(covered);
  const known: ScopeKey[] = [];
  const added: ScopeKey[] = [];
  for (const k of current) {
    const old = k.ids.filter((id) => had.has(`${k.field}:${id}`));
    const fresh = k.ids.filter((id) => !had.has(`${k.field}:${id}`));
    if (old.length) known.push({ field: k.field, ids: old });
    if (fresh.length) added.push({ field: k.field, ids: fresh });
  }
  return { known, added };
}

/**
 * Issue #22.5: Node refuses request URLs over 16 KB (about 340 ids in one `$in`). Each chunk's ids,
 * JSON-quoted and URL-encoded, stay under `maxChars`, leaving room for the rest of the query.
 */
export const MAX_IN_CHARS = 12_000;

export function chunkIds(ids: readonly string[], maxChars = MAX_IN_CHARS): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let size = 0;
  for (const id of ids) {
    const cost = encodeURIComponent(JSON.stringify(id)).length + 3; // the comma, encoded
    if (chunk.length > 0 && size + cost > maxChars) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(id);
    size += cost;
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** One filter per chunk of each key: `{field: {$in: ids}}`, plus `extra` (the cursor bound). */
export function keyFilters(keys: readonly ScopeKey[], extra: Record<string, unknown> = {}, maxChars = MAX_IN_CHARS): Array<Record<string, unknown>> {
  return keys.flatMap((k) => chunkIds(k.ids, maxChars).map((ids) => ({ ...extra, [k.field]: { $in: ids } })));
}

/** Ids the server knows (temporary ids of records not created yet would match nothing). */
function serverIds(ids: Iterable<string>): string[] {
  return unique([...ids].filter((id) => !isTempId(id))).sort();
}

function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}
