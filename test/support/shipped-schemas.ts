/**
 * S13: the mirror's schema versions exactly as shipped — frozen copies, NOT imported from db.ts,
 * so editing a shipped version in place (instead of adding the next one with an upgrade) fails the
 * upgrade tests that seed a database with them (test/unit/data/db-upgrade.test.ts,
 * test/integration/sync/encrypted-upgrade.test.ts).
 */
export const SHIPPED_V1 = {
  participants: 'id, client_ref, academy_uid, custody_status, program_status, enrollment_date, projected_release_date, created_date, updated_date',
  cohorts: 'id, client_ref, program_id, site_id, status, start_date, created_date, updated_date',
  enrollments:
    'id, client_ref, participant_id, cohort_id, enrollment_status, [cohort_id+enrollment_status], [participant_id+enrollment_status], created_date, updated_date',
  sessions: 'id, cohort_id, scheduled_at, updated_date',
  outcomes: 'id, participant_id, updated_date',
  programs: 'id, client_ref, created_date, updated_date',
  sites: 'id, client_ref, site_type, created_date, updated_date',
  users: 'id, email, created_date, updated_date',
  outbox: '++seq, [entity+record_id], record_id, state, user_id, [user_id+state]',
  syncState: 'entity',
  conflicts: '++id, [entity+record_id], status',
  aliases: 'temp_id, server_id',
  meta: 'key',
};

/** Version 2 (issue #11.4): the mirror tables keep only the indexes a query or the engine uses. */
export const SHIPPED_V2 = {
  ...SHIPPED_V1,
  participants: 'id, custody_status, projected_release_date',
  cohorts: 'id, program_id, site_id',
  enrollments: 'id, participant_id, cohort_id, enrollment_status, [cohort_id+enrollment_status], created_date',
  sessions: 'id, cohort_id',
  outcomes: 'id, participant_id',
  programs: 'id',
  sites: 'id',
  users: 'id',
};
