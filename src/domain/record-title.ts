import type { EntityName } from '../../shared/entities';
import { unreachable } from './unreachable';

type Row = Record<string, unknown> | undefined;

function str(row: Row, key: string): string | null {
  const v = row?.[key];
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

export function personName(row: Row | null | undefined): string | null {
  if (!row) return null;
  const name = [str(row, 'first_name'), str(row, 'last_name')].filter(Boolean).join(' ');
  return name || null;
}

/**
 * The name a coach recognises a record by on the Sync page. An enrollment has no name of its own:
 * it is "{participant} in {cohort code}", so the two rows it points at are passed in.
 */
export function titleOfRow(entity: EntityName, row: Row, related: { participant?: Row; cohort?: Row } = {}): string | null {
  switch (entity) {
    case 'Participant':
      return personName(row);
    case 'Cohort':
      return str(row, 'cohort_code');
    case 'Program':
      return str(row, 'program_name');
    case 'Site':
      return str(row, 'site_name');
    case 'User':
      return str(row, 'full_name') ?? str(row, 'email');
    case 'Session':
      return str(row, 'topic');
    case 'Enrollment': {
      const who = personName(related.participant);
      const where = str(related.cohort, 'cohort_code');
      if (who && where) return `${who} in ${where}`;
      return who ?? where;
    }
    case 'Outcome':
      return personName(related.participant);
    case 'Attendance': {
      // "Ana Ruiz in DSA-PGC-2026Q4": whose attendance, in which cohort (the Sync page's conflicts).
      const who = personName(related.participant);
      const where = str(related.cohort, 'cohort_code');
      return who && where ? `${who} in ${where}` : (who ?? where);
    }
    default:
      return unreachable(entity, 'entity');
  }
}
