/**
 * Issue #22.2, beyond the scope, online. A tablet holds its user's sites; the Participants list,
 * the enrol search and ParticipantDetail also ask the server, when online, for participants the
 * tablet does not hold, and opening one keeps it on the tablet for a day (a pin, OPENED_TTL_MS),
 * long enough to work with it offline later that day. The engine then keeps the pinned
 * participant (its row, enrollments and outcomes) and the pinned cohorts until the pin lapses.
 *
 * Online only, never queued: these read the server, like the approvals. The screens' hooks are in
 * beyond-scope-hooks.ts.
 */
import type { DataContext } from '../context';
import { OfflineError } from '../errors';
import type { Row } from '../platform-like';
import { isTempId } from '../sync/references';
import { chunkIds, OPENED_TTL_MS, type PinRow } from '../sync/scope';
import { UID_FIELD } from '../../../shared/config';
import type { Attendance, Cohort, Enrollment, EntityName, Outcome, Participant, ProgramStatus } from '../../../shared/entities';

/** What keepOnTablet and the search throw when the server cannot be reached. */
export const BEYOND_SCOPE_OFFLINE_MESSAGE = 'You are offline. Participants of other sites can be opened when you are online.';

/** Server matches asked for at most (the screens show them under the tablet's own). */
export const BEYOND_SEARCH_LIMIT = 20;

/** Typing pauses this long before the server is asked. */
export const BEYOND_SEARCH_DEBOUNCE_MS = 300;

/** Which screen's matching rules: the Participants list (spec 2.5) or the enrol search (spec 2.10). */
export type BeyondSearchMode = 'list' | 'enrol';

/** The fields each search matches, as the local searches do (domain/participant-search.ts, enrol-search.ts). */
export const SEARCH_FIELDS: Record<BeyondSearchMode, readonly string[]> = {
  list: ['first_name', 'last_name', 'email'],
  enrol: ['first_name', 'last_name', UID_FIELD],
};

/** Words of the text used at most, and characters of one word (the server bounds a `$regex` to 200). */
const MAX_WORDS = 8;
const MAX_WORD_CHARS = 60;

/** The text as a regular expression matching it literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The entity filter of a search: every word of the text must appear (case-insensitively) in one of
 * the mode's fields, `{$and: [{$or: [{field: {$regex, $options: 'i'}}, …]}, …]}`, plus the
 * program_status filter of the list when one is chosen. Null when the text has no words.
 */
export function participantSearchFilter(
  text: string,
  mode: BeyondSearchMode = 'list',
  status: ProgramStatus | 'all' = 'all',
): Record<string, unknown> | null {
  const words = [...new Set(text.trim().toLowerCase().split(/\s+/).filter(Boolean))].slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  const fields = SEARCH_FIELDS[mode];
  const and: Array<Record<string, unknown>> = words.map((word) => {
    const pattern = escapeRegex(word.slice(0, MAX_WORD_CHARS));
    return { $or: fields.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } })) };
  });
  if (status !== 'all') and.push({ program_status: status });
  return { $and: and };
}

export interface BeyondSearchOptions {
  limit?: number;
  mode?: BeyondSearchMode;
  /** The list's program-status filter. */
  status?: ProgramStatus | 'all';
}

export function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function client({ client: c }: DataContext) {
  if (!c || browserOffline()) throw new OfflineError(BEYOND_SCOPE_OFFLINE_MESSAGE);
  return c;
}

/** The platform client throws PlatformError: no status means no HTTP answer arrived. */
function noAnswer(error: unknown): boolean {
  return (error as { status?: number } | null)?.status === undefined;
}

async function online<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (noAnswer(error)) throw new OfflineError(BEYOND_SCOPE_OFFLINE_MESSAGE);
    throw error;
  }
}

/**
 * The server's participants matching the text (the same fields as the screen's local search),
 * sorted like the list (enrollment_date newest first), at most `limit`. Throws OfflineError
 * without a connection.
 */
export async function searchParticipantsBeyond(ctx: DataContext, text: string, options: BeyondSearchOptions = {}): Promise<Participant[]> {
  const q = participantSearchFilter(text, options.mode ?? 'list', options.status ?? 'all');
  if (!q) return [];
  const c = client(ctx);
  const limit = options.limit ?? BEYOND_SEARCH_LIMIT;
  // The typed words travel in a POST body where the server offers `participantSearch` (Passage's
  // does), so no name stands in a request URL; the plain platform's GET filter otherwise.
  if (c.functions && !withoutSearchFunction.has(c)) {
    try {
      return (await online(() => c.functions!.invoke(SEARCH_FUNCTION, { q, sort: '-enrollment_date', limit }))).data as Participant[];
    } catch (error) {
      if ((error as { status?: number } | null)?.status !== 404) throw error;
      withoutSearchFunction.add(c);
    }
  }
  const rows = await online(() => c.entities('Participant').filter(q, '-enrollment_date', limit));
  return rows as unknown as Participant[];
}

const SEARCH_FUNCTION = 'participantSearch';
/** Clients whose server answered 404 for the function: that platform has none. */
const withoutSearchFunction = new WeakSet<object>();

/** Rows of one entity whose `field` is one of `ids`, chunked so no URL grows too long (issue #22.5). */
async function filterIn(ctx: DataContext, entity: EntityName, field: string, ids: readonly string[]): Promise<Row[]> {
  const c = client(ctx);
  const rows: Row[] = [];
  for (const chunk of chunkIds(ids)) rows.push(...(await online(() => c.entities(entity).filter({ [field]: { $in: chunk } }))));
  return rows;
}

/**
 * Opens a participant from beyond the tablet's scope: fetches it, its enrollments, their cohorts
 * its outcomes and attendance, and writes them into the mirror with 'opened' pins (until now + OPENED_TTL_MS)
 * for the participant and those cohorts, all in one transaction. A row with changes still queued
 * on this tablet is left as it is (the queued change wins until it is sent), and so is one the
 * mirror holds in a newer version. Returns the participant as the tablet now holds it, or null
 * when the server has no such participant. Throws OfflineError without a connection.
 */
export async function keepOnTablet(ctx: DataContext, participantId: string): Promise<Participant | null> {
  // The server never hands out a temporary id: a record made on a tablet is not there by it.
  if (!participantId || isTempId(participantId)) return null;
  const c = client(ctx);
  let participant: Row | null;
  try {
    participant = await online(() => c.entities('Participant').get(participantId));
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
  if (!participant?.id) return null;

  const byParticipant = { participant_id: participant.id };
  const [enrollments, outcomes, attendance] = await Promise.all([
    online(() => c.entities('Enrollment').filter(byParticipant)),
    online(() => c.entities('Outcome').filter(byParticipant)),
    // Issue #23: their attendance (their record shows their rate); a platform without it answers 404.
    online(() => c.entities('Attendance').filter(byParticipant)).catch((error: unknown) => {
      if ((error as { status?: number }).status === 404) return [] as Row[];
      throw error;
    }),
  ]);
  const cohortIds = [...new Set(enrollments.map((e) => e.cohort_id).filter((id): id is string => typeof id === 'string' && id !== ''))];
  const cohorts = cohortIds.length ? await filterIn(ctx, 'Cohort', 'id', cohortIds) : [];

  const { db, now } = ctx;
  const until = now() + OPENED_TTL_MS;
  return db.transaction('rw', [db.participants, db.enrollments, db.cohorts, db.outcomes, db.attendance, db.outbox, db.conflicts, db.pins], async () => {
    // Changes still queued (any state) or an open conflict: the tablet's copy stays as it is.
    const queued = async (entity: EntityName, id: string) =>
      (await db.outbox.where('[entity+record_id]').equals([entity, id]).count()) > 0 ||
      (await db.conflicts.where('[entity+record_id]').equals([entity, id]).filter((c) => c.status === 'open').count()) > 0;
    /** Puts the server's rows, except those with queued changes or a newer copy on the tablet. */
    const putRows = async <T extends { id: string; updated_date?: string }>(entity: EntityName, table: { bulkGet(ids: string[]): Promise<(T | undefined)[]>; bulkPut(rows: T[]): Promise<unknown> }, rows: Row[]) => {
      if (rows.length === 0) return;
      const held = await table.bulkGet(rows.map((r) => r.id));
      const fresh: T[] = [];
      for (const [i, row] of (rows as unknown as T[]).entries()) {
        if (await queued(entity, row.id)) continue;
        const mine = held[i];
        if (mine?.updated_date && row.updated_date && mine.updated_date > row.updated_date) continue;
        fresh.push(row);
      }
      if (fresh.length) await table.bulkPut(fresh);
    };
    await putRows<Participant>('Participant', db.participants, [participant]);
    await putRows<Enrollment>('Enrollment', db.enrollments, enrollments);
    await putRows<Cohort>('Cohort', db.cohorts, cohorts);
    await putRows<Outcome>('Outcome', db.outcomes, outcomes);
    await putRows<Attendance>('Attendance', db.attendance, attendance);

    const pins: PinRow[] = [
      { entity: 'Participant', id: participant.id, reason: 'opened', until },
      ...cohorts.map((cohort): PinRow => ({ entity: 'Cohort', id: cohort.id, reason: 'opened', until })),
    ];
    // An opened pin is extended, never shortened; an 'own' pin (this tablet's intake) is another row.
    const existing = await db.pins.bulkGet(pins.map((p) => [p.entity, p.id, p.reason] as [string, string, string]));
    const next = pins.filter((_, i) => !((existing[i]?.until ?? 0) >= until));
    if (next.length) await db.pins.bulkPut(next);
    return (await db.participants.get(participant.id)) ?? null;
  });
}
