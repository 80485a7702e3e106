import { humanize } from '../../domain/format';
import { unreachable } from '../../domain/unreachable';
import type { EntityName } from '../../../shared/entities';

/**
 * "What changed" for one queued op on the Sync page (issue #5.4), from the op alone: an update
 * carries only its changed fields (S4), a create its whole body.
 */
export interface OpLike {
  entity: EntityName;
  kind: 'create' | 'update' | 'delete';
  data: Record<string, unknown>;
}

const ENTITY_LABEL: Record<EntityName, string> = {
  Participant: 'Participant',
  Cohort: 'Cohort',
  Enrollment: 'Enrollment',
  Session: 'Session',
  Outcome: 'Outcome',
  Attendance: 'Attendance',
  Program: 'Program',
  Site: 'Site',
  User: 'Profile',
};

export function entityLabel(entity: EntityName): string {
  return ENTITY_LABEL[entity];
}

/** Field names as words: 'projected_release_date' → 'projected release date'. */
export function fieldLabel(field: string): string {
  return humanize(field);
}

export function describeOp(op: OpLike): string {
  switch (op.kind) {
    case 'create':
      if (op.entity === 'Enrollment') return 'Enrolled in a cohort';
      return `Added ${entityLabel(op.entity).toLowerCase()}`;
    case 'delete':
      return `Deleted ${entityLabel(op.entity).toLowerCase()}`;
    case 'update': {
      if (op.entity === 'Enrollment' && op.data.enrollment_status === 'withdrawn') return 'Unenrolled from a cohort';
      const fields = Object.keys(op.data);
      if (fields.length === 0) return 'No fields changed';
      // Three names fit a tablet row; the rest is a count ('+4 more').
      const shown = fields.slice(0, 3).map(fieldLabel).join(', ');
      return fields.length > 3 ? `Changed ${shown} +${fields.length - 3} more` : `Changed ${shown}`;
    }
    default:
      return unreachable(op.kind, 'op kind');
  }
}

/** A value as the Sync page shows it in a conflict: empty values are named, not blank. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length ? value.map(showValue).join(', ') : '(empty)';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
