/**
 * Issue #22: which rows a tablet holds (pure rules both sides agree on: the PWA's sync engine
 * derives its scope and keys with them, the server's optional `scopePull` function answers with
 * them). A tablet holds its user's sites, not the whole academy. Whole on every tablet: programs,
 * sites and the coach directory. By site: cohorts of the sites in scope, their sessions and
 * enrollments; the participants of those enrollments and their outcomes; the attendance taken in
 * those cohorts (issue #23). Besides: pinned records
 * (opened from beyond the scope, or this tablet's own unenrolled intakes).
 */
import type { EntityName } from './entities';

/** Prefix of ids made on a device before the server assigned one; the server never hands one out. */
export const TEMPORARY_ID_PREFIX = 'local-';

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

/** The entities held by site: pulled with filters, in this order (each one's keys come from the one before). */
export const SCOPED_ORDER: readonly EntityName[] = ['Cohort', 'Enrollment', 'Session', 'Participant', 'Outcome', 'Attendance'];

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
  pins: ReadonlyArray<{ entity: EntityName; id: string; reason: 'opened' | 'own' }>;
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
    case 'Attendance':
      // Issue #23: like sessions, by the cohorts of the sites in scope; a pinned participant brings
      // their own attendance wherever it was taken (their record shows their rate).
      return [keys('cohort_id', siteCohorts), keys('participant_id', pinned('Participant'))];
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

/** Ids the server knows (temporary ids of records not created yet would match nothing). */
function serverIds(ids: Iterable<string>): string[] {
  return unique([...ids].filter((id) => !id.startsWith(TEMPORARY_ID_PREFIX))).sort();
}

function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/**
 * The optional fast path (issue #22.5): Passage's server offers a backend function `scopePull` that
 * answers for the whole scope in one request, deriving the scope and each entity's keys with the
 * rules above from its own rows. The plain platform API needs one filtered, chunked request per
 * entity and stage; a platform without the function answers 404 and the tablet keeps to those.
 */
export const SCOPE_PULL_FUNCTION = 'scopePull';
/** Above this many rows in one answer the server refuses (413) and the tablet pulls entity by entity. */
export const SCOPE_PULL_MAX_ROWS = 20_000;

export interface ScopePullRequest {
  /** The person's choice, relative to their default sites; the server derives the scope from it. */
  added: string[];
  removed: string[];
  /** Pinned records (server ids): opened participants and their cohorts, own unenrolled intakes. */
  pins: { Participant: string[]; Cohort: string[] };
  /**
   * Per scoped entity wanted: the keys the tablet's cursor covers (null: the whole entity) and the
   * cursor minus the overlap. Rows of covered keys come when changed since `since`; rows of the
   * other keys all come.
   */
  state: Partial<Record<EntityName, { since: string | null; covered: string[] | null }>>;
}

export interface ScopePullAnswer {
  scope: { siteIds: string[]; defaultSiteIds: string[] };
  /** Per entity asked for: the rows to apply, the newest updated_date before any was read, the keys now. */
  entities: Partial<Record<EntityName, { rows: Array<Record<string, unknown> & { id: string }>; high_water: string | null; keys: string[] }>>;
}
