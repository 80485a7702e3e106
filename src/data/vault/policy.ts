/**
 * What the device keeps readable and what it seals (issue #14.1). A table listed here stores
 * each row as its clear fields plus `_enc` (every other field, sealed); a field missing from a
 * clear list is sealed, so a field added later is protected by default.
 *
 * Clear: ids and references, statuses and the dates the indexes and the engine's scans need (an
 * IndexedDB index can only read clear values). Not listed, so clear: cohorts, programs, sites,
 * sessions and enrollments hold no personal data beyond the ids and dates they link; the coach
 * directory (users: staff names and emails, what every approved coach may read) stays clear so a
 * shared tablet can say whose changes are waiting (S11) when they were sealed with another
 * account's key. The signed-in user's own cached record (meta) is sealed.
 */
export const SEALED_FIELD = '_enc';

export const CLEAR_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  participants: new Set([
    'id',
    'client_ref',
    'custody_status',
    'program_status',
    'projected_release_date',
    'enrollment_date',
    'created_date',
    'updated_date',
  ]),
  outcomes: new Set(['id', 'client_ref', 'participant_id', 'created_date', 'updated_date']),
  // Issue #23: the note (personal) and who recorded it are sealed; the links, the status and the
  // time of the tap stay clear so the roster and the rates count without opening every row.
  attendance: new Set(['id', 'client_ref', 'session_id', 'cohort_id', 'participant_id', 'status', 'recorded_at', 'created_date', 'updated_date']),
  outbox: new Set([
    'seq',
    'entity',
    'record_id',
    'kind',
    'base_updated_date',
    'client_ref',
    'state',
    'attempts',
    'next_attempt_at',
    'outcome_unknown',
    'no_bulk',
    'user_id',
    'created_at',
  ]),
  conflicts: new Set(['id', 'entity', 'record_id', 'field', 'server_updated_date', 'detected_at', 'status', 'kind']),
};

/**
 * meta rows whose value is personal or a credential: the cached signed-in user, the access token
 * (issue #21.1: kept sealed under the data key). Other meta rows are sync state and the vault record.
 */
export const SEALED_META_KEYS: ReadonlySet<string> = new Set(['currentUser', 'session']);

/** The meta row that says plain rows from before version 3 wait to be sealed (db.ts; device-vault.ts `sealExistingRows`). */
export const PLAIN_ROWS_KEY = 'plainRows';

/**
 * The meta row that says every stored row carries a current seal (bound to its place, issue #21.5):
 * written with value SEAL_FORMAT once every sealed table was rewritten (or by a new vault, whose
 * key never sealed anything without AAD). Until then seals without AAD still open.
 */
export const SEAL_FORMAT_KEY = 'sealFormat';
export { SEAL_SCHEMA_VERSION as SEAL_FORMAT } from './cipher';

export const SEALED_TABLES: readonly string[] = [...Object.keys(CLEAR_FIELDS), 'meta'];
