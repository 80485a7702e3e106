import Dexie, { type Table, type Transaction } from 'dexie';
import { SYNC_STATUS_KEY } from './sync/types';
import type { Attendance, Cohort, Enrollment, Outcome, Participant, Program, Session, Site, User, EntityName } from '../../shared/entities';
import { sealingMiddleware } from './vault/middleware';
import { OpenedRows } from './vault/opened-rows';
import { SealState } from './vault/seal-state';
import { KeyRing } from './vault/key-ring';
import { PLAIN_ROWS_KEY, SEALED_TABLES } from './vault/policy';
import type { PinRow } from './sync/scope';

/**
 * The local mirror (docs/design.md "data/db.ts"). Screens never import this file: they read through
 * data/queries and write through data/commands. Versions are append-only (S13): never edit a
 * shipped version's stores, add a new version with an upgrade and a test on a seeded old database.
 */

export type OpKind = 'create' | 'update' | 'delete';
export type OpState = 'pending' | 'inflight' | 'rejected';

export interface OutboxOp {
  seq?: number;
  entity: EntityName;
  /** Local id of the record (a temporary id until the server assigns one; rewritten then, S2). */
  record_id: string;
  kind: OpKind;
  /** create: the whole body; update: only the changed fields (S4). */
  data: Record<string, unknown>;
  /** update: the server's updated_date the change was based on (S4). */
  base_updated_date?: string | null;
  /** update: the base values of the changed fields, for the per-field merge (S4). */
  base_values?: Record<string, unknown>;
  /** create: the UUID that makes the create idempotent (S3). */
  client_ref?: string;
  state: OpState;
  attempts: number;
  /** Epoch ms before which the op is not retried (S8). */
  next_attempt_at: number;
  /** True once a create may have reached the server (timeout, 5xx): look up client_ref first (S3). */
  outcome_unknown?: boolean;
  /** duplicate_ids: the records a 409 POSSIBLE_DUPLICATE named (issue #23.7). */
  last_error?: { status?: number; code?: string; message: string; duplicate_ids?: string[] } | null;
  /** delete: the row as it was, so discarding a rejected delete can put it back offline. */
  snapshot?: Record<string, unknown> | null;
  /**
   * update: field conflicts found by an attempt whose answer never came (S4). Kept on the op so a
   * retry, which then sees its own value on the server, still records them.
   */
  detected_conflicts?: Record<string, { local: unknown; server: unknown; server_updated_date: string | null }>;
  /**
   * update: the values attempts whose answer never came sent, per field (S4). The server may hold
   * any of them: such a value there is this device's own write, not another device's edit.
   */
  sent_values?: Record<string, unknown[]>;
  /** create: when a bulk create with this op failed with a 4xx, it is sent alone next time (S7). */
  no_bulk?: boolean;
  /** Id of the signed-in user who made the change (S11). */
  user_id: string | null;
  created_at: number;
  /**
   * Issue #26: when the person last changed this op on the device (epoch ms): a merged edit (S1)
   * moves it to the latest edit. Sent as the edit time (X-Passage-Edit-Times); absent on ops
   * queued before issue #26, which fall back to created_at.
   */
  edited_at?: number;
  /** Issue #26: an update queued because a person resolved a conflict (X-Passage-Resolves-Conflict). */
  resolves_conflict?: boolean;
}

export interface SyncStateRow {
  entity: EntityName;
  /** updated_date of the newest row pulled (S5). */
  cursor: string | null;
  last_pulled_at: number | null;
  last_reconciled_at: number | null;
  /**
   * Issue #9.5, the first sync: true once this entity's first pull ended (every page written; set
   * in the transaction of its last page, so a sync cut off half way stays unfinished).
   */
  first_done?: boolean;
  /** Rows the first pull has written so far (kept after it ended). */
  first_rows?: number;
  /** The server's row count when the first pull started (`GET /count`); null when it could not tell. */
  first_total?: number | null;
  /**
   * The last pull was refused (403 and other 4xx): this user may not read the entity, which counts
   * as done for the first sync. Cleared by the first page a later pull gets.
   */
  unreadable?: boolean;
  /**
   * Set when the server sends this entity as a projection without updated_date (a coach's view of
   * User): there is no cursor, so a pull first asks which row was updated last and reads the whole
   * list only when that changed or `read_at` (the last full read) is older than the reconcile
   * interval (issue #11.3).
   */
  projection?: { newest: string | null; read_at: number } | null;
  /**
   * Issue #22: the scope keys ("field:id", sync/scope.ts) whose rows `cursor` covers, for an entity
   * held by site; null or absent when the cursor covers the whole entity (unfiltered pulls).
   */
  scope_keys?: string[] | null;
}

export interface ConflictRow {
  id?: number;
  entity: EntityName;
  record_id: string;
  field: string;
  local_value: unknown;
  server_value: unknown;
  /** Who last changed the server value (updated_by is not in the contract: best effort). */
  server_updated_date: string | null;
  detected_at: number;
  /** 'open' until a person chooses; then 'kept_local' or 'took_server'. */
  status: 'open' | 'kept_local' | 'took_server';
  /** 'vanished' when the server deleted a record that had pending ops (S6). */
  kind: 'field' | 'vanished';
}

export interface AliasRow {
  temp_id: string;
  entity: EntityName;
  server_id: string;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

/** The mirror tables' indexes of schema version 1 (issue #11.4's version 2 dropped the unused ones). */
export const V1_MIRROR_STORES = {
  participants: 'id, client_ref, academy_uid, custody_status, program_status, enrollment_date, projected_release_date, created_date, updated_date',
  cohorts: 'id, client_ref, program_id, site_id, status, start_date, created_date, updated_date',
  enrollments:
    'id, client_ref, participant_id, cohort_id, enrollment_status, [cohort_id+enrollment_status], [participant_id+enrollment_status], created_date, updated_date',
  sessions: 'id, cohort_id, scheduled_at, updated_date',
  outcomes: 'id, participant_id, updated_date',
  programs: 'id, client_ref, created_date, updated_date',
  sites: 'id, client_ref, site_type, created_date, updated_date',
  users: 'id, email, created_date, updated_date',
};

export class PassageDB extends Dexie {
  participants!: Table<Participant, string>;
  cohorts!: Table<Cohort, string>;
  enrollments!: Table<Enrollment, string>;
  sessions!: Table<Session, string>;
  outcomes!: Table<Outcome, string>;
  /** Issue #23: one row per (session, participant) on the server; see queries/attendance.ts. */
  attendance!: Table<Attendance, string>;
  programs!: Table<Program, string>;
  sites!: Table<Site, string>;
  users!: Table<User, string>;
  outbox!: Table<OutboxOp, number>;
  syncState!: Table<SyncStateRow, EntityName>;
  conflicts!: Table<ConflictRow, number>;
  aliases!: Table<AliasRow, string>;
  meta!: Table<MetaRow, string>;
  /** Issue #22: records kept beyond the tablet's scope (opened online, own unenrolled intakes). */
  pins!: Table<PinRow, [string, string, string]>;

  /** The data key while unlocked (issue #14): personal fields are sealed below Dexie (vault/). */
  readonly keys: KeyRing;

  /**
   * `keys`: the app passes an empty (locked) ring; a database made without one (tests, the bench)
   * gets a fresh random key, so everything that runs on it runs sealed.
   */
  constructor(name = 'passage', keys: KeyRing = KeyRing.withNewKey()) {
    super(name);
    this.keys = keys;
    // What the stored rows may still hold besides current seals (plain rows of a version 2 device,
    // seals from before issue #21): read from meta at every open, before any other request.
    const seals = new SealState();
    this.use(sealingMiddleware(keys, new OpenedRows(), seals));
    this.on('ready', (vip) => seals.load(vip.table('meta')), true);
    this.version(1).stores({
      ...V1_MIRROR_STORES,
      outbox: '++seq, [entity+record_id], record_id, state, user_id, [user_id+state]',
      syncState: 'entity',
      conflicts: '++id, [entity+record_id], status',
      aliases: 'temp_id, server_id',
      meta: 'key',
    });
    // Version 2 (issue #11.4): only the indexes a query, a reference rewrite (S2) or the engine uses.
    // Every index costs each pulled row a write; a first sync writes 66,000 rows.
    // Used: participants custody_status (Dashboard counts), projected_release_date (upcoming
    // releases); cohorts program_id, site_id; enrollments participant_id, cohort_id,
    // enrollment_status, [cohort_id+enrollment_status], created_date (recent enrollments);
    // sessions cohort_id; outcomes participant_id. Issue #9.5: first-sync flags on syncState.
    this.version(2)
      .stores({
        participants: 'id, custody_status, projected_release_date',
        cohorts: 'id, program_id, site_id',
        enrollments: 'id, participant_id, cohort_id, enrollment_status, [cohort_id+enrollment_status], created_date',
        sessions: 'id, cohort_id',
        outcomes: 'id, participant_id',
        programs: 'id',
        sites: 'id',
        users: 'id',
      })
      .upgrade(markFirstSyncOfVersion1);
    // Version 3 (issue #14.1): personal fields sealed at rest. The upgrade runs when the database
    // opens, before anyone unlocked it, so it cannot seal: it marks the plain rows a version 2
    // device holds, and `sealExistingRows` (vault/device-vault.ts) rewrites them right after the
    // first unlock. Until then they stay readable as they were (and nothing new is written plain:
    // a locked database refuses writes of personal fields).
    this.version(3).stores({}).upgrade(markPlainRows);
    // Version 4 (issue #22): a tablet holds its sites; pins keep records beyond them (sync/scope.ts).
    this.version(4).stores({ pins: '[entity+id+reason], until' });
    // Version 5 (issue #23): attendance. By session (the roster), cohort (rates, the CSV) and
    // participant (their record); the pair index finds the one record a tap changes (S16).
    this.version(5)
      .stores({ attendance: 'id, session_id, cohort_id, participant_id, [session_id+participant_id]' })
      .upgrade(markNewEntitiesDone(['Attendance']));
  }
}

/** The meta row that says plain rows from before version 3 wait to be sealed (defined in vault/policy.ts). */
export { PLAIN_ROWS_KEY };

async function markPlainRows(tx: Transaction): Promise<void> {
  // A table a later version adds (attendance, version 5) is not part of this upgrade: it is empty.
  const known = new Set([...Object.keys(V1_MIRROR_STORES), 'outbox', 'conflicts', 'meta']);
  for (const table of SEALED_TABLES.filter((t) => known.has(t))) {
    if ((await tx.table(table).count()) > 0) {
      await tx.table('meta').put({ key: PLAIN_ROWS_KEY, value: true });
      return;
    }
  }
}

/**
 * Upgrade rule for the first-sync flags (issue #9.5). Version 1 had none, but it stored
 * lastSyncedAt only after a whole cycle succeeded, and a cycle pulls every entity to its end: a
 * device with lastSyncedAt has finished its first sync. Each entity with a syncState row is done;
 * one without a row was refused in every cycle (v1 wrote a row after any successful page, even an
 * empty one), so it counts as unreadable. A device without lastSyncedAt stopped during its first
 * sync and finishes it from its cursors (nothing is downloaded again).
 */
async function markFirstSyncOfVersion1(tx: Transaction): Promise<void> {
  const status = (await tx.table('meta').get(SYNC_STATUS_KEY))?.value as { lastSyncedAt?: number | null } | undefined;
  if (status?.lastSyncedAt == null) return;
  // Only the entities version 1 knew: a table added later (attendance, version 5) is not part of
  // this upgrade's transaction, and its first pull has simply not happened yet.
  const v1Tables = new Set(Object.keys(V1_MIRROR_STORES));
  for (const entity of (Object.keys(TABLE_OF) as EntityName[]).filter((e) => v1Tables.has(TABLE_OF[e]))) {
    const row = (await tx.table('syncState').get(entity)) as SyncStateRow | undefined;
    const rows = await tx.table(TABLE_OF[entity]).count();
    if (row) await tx.table('syncState').put({ ...row, first_done: true, first_rows: rows, first_total: null });
    else await tx.table('syncState').put({ entity, cursor: null, last_pulled_at: null, last_reconciled_at: null, unreadable: true });
  }
  await tx.table('meta').put({ key: SYNC_STATUS_KEY, value: { ...status, firstSyncComplete: true } });
}

/**
 * Upgrade rule for an entity a version adds (attendance, version 5): on a device that had finished
 * its first sync, the new entity counts as done from an empty cursor, so the tablet does not go
 * back to "Not all data is on this tablet yet" offline after an update; its rows come with the
 * next pull, which starts from the beginning (cursor null). A device still in its first sync
 * simply pulls it with the rest.
 */
function markNewEntitiesDone(entities: EntityName[]) {
  return async (tx: Transaction): Promise<void> => {
    const status = (await tx.table('meta').get(SYNC_STATUS_KEY))?.value as { firstSyncComplete?: boolean } | undefined;
    if (status?.firstSyncComplete !== true) return;
    for (const entity of entities) {
      if (await tx.table('syncState').get(entity)) continue;
      await tx.table('syncState').put({ entity, cursor: null, last_pulled_at: null, last_reconciled_at: null, first_done: true, first_rows: 0, first_total: null });
    }
  };
}

/** Table of each entity in the mirror. */
export const TABLE_OF: Record<EntityName, keyof PassageDB & string> = {
  Participant: 'participants',
  Cohort: 'cohorts',
  Enrollment: 'enrollments',
  Session: 'sessions',
  Outcome: 'outcomes',
  Attendance: 'attendance',
  Program: 'programs',
  Site: 'sites',
  User: 'users',
};

/** The app's one database. Tests make their own `new PassageDB(uniqueName)`. */
export const db = new PassageDB('passage', new KeyRing());
