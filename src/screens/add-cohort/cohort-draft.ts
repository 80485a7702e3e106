import { capacityError, DEFAULT_CAPACITY, parseCapacity } from '../../domain/capacity';
import type { CohortInput } from '../../data/commands/cohorts';
import type { CohortStatus } from '../../../shared/entities';

/** The AddCohort form as typed (spec 2.9): text fields, capacity as text until submit. */
export interface CohortDraft {
  program_id: string;
  site_id: string;
  cohort_code: string;
  start_date: string;
  end_date: string;
  capacity: string;
  status: CohortStatus;
  schedule_notes: string;
  lead_coach_email: string;
}

export const EMPTY_DRAFT: CohortDraft = {
  program_id: '',
  site_id: '',
  cohort_code: '',
  start_date: '',
  end_date: '',
  capacity: String(DEFAULT_CAPACITY),
  status: 'planned',
  schedule_notes: '',
  lead_coach_email: '',
};

/** Spec 5: program, site, code and start date are required; submit stays disabled until set. */
export function hasRequired(d: CohortDraft): boolean {
  return d.program_id !== '' && d.site_id !== '' && d.cohort_code.trim() !== '' && d.start_date !== '';
}

export interface DraftErrors {
  capacity?: string;
  end_date?: string;
}

/** Checks beyond the required fields: a capacity of at least 1, an end not before the start. */
export function draftErrors(d: CohortDraft): DraftErrors {
  const errors: DraftErrors = {};
  const cap = capacityError(d.capacity);
  if (cap) errors.capacity = cap;
  // ISO dates compare correctly as text.
  if (d.end_date && d.start_date && d.end_date < d.start_date) errors.end_date = 'End date must be on or after the start date';
  return errors;
}

/** The create body of spec 7.3; empty optional fields are sent as null. */
export function toCohortInput(d: CohortDraft): CohortInput {
  return {
    program_id: d.program_id,
    site_id: d.site_id,
    cohort_code: d.cohort_code.trim(),
    start_date: d.start_date,
    end_date: d.end_date || null,
    schedule_notes: d.schedule_notes.trim() || null,
    capacity: parseCapacity(d.capacity),
    status: d.status,
    lead_coach_email: d.lead_coach_email || null,
    support_coach_emails: [],
  };
}
