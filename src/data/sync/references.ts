import { TEMPORARY_ID_PREFIX } from '../../../shared/scope-rules';
import type { EntityName } from '../../../shared/entities';

/**
 * Which fields point at which entity. S2 rewrites these when a temporary id becomes a server id,
 * and S7 makes an op wait while one of them still names a record the server has not created.
 */
export interface Reference {
  entity: EntityName;
  field: string;
  target: EntityName;
}

export const REFERENCES: readonly Reference[] = [
  { entity: 'Enrollment', field: 'participant_id', target: 'Participant' },
  { entity: 'Enrollment', field: 'cohort_id', target: 'Cohort' },
  { entity: 'Cohort', field: 'program_id', target: 'Program' },
  { entity: 'Cohort', field: 'site_id', target: 'Site' },
  { entity: 'Session', field: 'cohort_id', target: 'Cohort' },
  { entity: 'Outcome', field: 'participant_id', target: 'Participant' },
  { entity: 'Attendance', field: 'session_id', target: 'Session' },
  { entity: 'Attendance', field: 'cohort_id', target: 'Cohort' },
  { entity: 'Attendance', field: 'participant_id', target: 'Participant' },
];

export function referencesFrom(entity: EntityName): Reference[] {
  return REFERENCES.filter((r) => r.entity === entity);
}

export function referencesTo(target: EntityName): Reference[] {
  return REFERENCES.filter((r) => r.target === target);
}

/** Prefix of ids made on this device; the server never hands out such an id (shared/scope-rules.ts). */
export const TEMP_ID_PREFIX = TEMPORARY_ID_PREFIX;

export function isTempId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(TEMP_ID_PREFIX);
}
