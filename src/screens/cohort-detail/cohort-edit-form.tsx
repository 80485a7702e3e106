import { useState, type FormEvent } from 'react';
import type { CohortInput } from '../../data/commands/cohorts';
import type { EditBasis } from '../../data/commands/record-writes';
import { editedFields, patchOf, showFieldValue, type EditField } from '../../domain/record-edit';
import { ChangedElsewhereNotice } from '../parts/changed-elsewhere-notice';
import { useRecordEdit } from '../parts/use-record-edit';
import type { Cohort, CohortStatus } from '../../../shared/entities';
import { capacityError, parseCapacity } from '../../domain/capacity';
import { codeKey, duplicateCodeMessage } from '../../domain/cohort-code';
import { useCohortCodes } from '../../data/queries/cohorts';
import { FormSection, SelectField, TextAreaField, TextField } from '../../ui/field';

/** The header's Save button submits this form by id (spec 2.10: edit mode buttons are Cancel and Save). */
export const COHORT_EDIT_FORM_ID = 'cohort-edit-form';

const STATUSES: CohortStatus[] = ['planned', 'active', 'completed'];
const statusLabel = (s: string) => s[0].toUpperCase() + s.slice(1);

/** The form's fields as the notice names them (S18). */
const FIELDS: EditField[] = [
  { key: 'cohort_code', label: 'Cohort Code' },
  { key: 'status', label: 'Status', show: (v) => (typeof v === 'string' && v ? statusLabel(v) : showFieldValue(v)) },
  { key: 'start_date', label: 'Start Date' },
  { key: 'end_date', label: 'End Date' },
  { key: 'capacity', label: 'Capacity' },
  { key: 'lead_coach_email', label: 'Lead Coach Email' },
  { key: 'schedule_notes', label: 'Schedule Notes' },
];

/** What the inputs show for a cohort. */
function inputsOf(c: Cohort) {
  return {
    code: c.cohort_code ?? '',
    status: (c.status || 'planned') as CohortStatus,
    start: c.start_date ?? '',
    end: c.end_date ?? '',
    capacity: c.capacity == null ? '' : String(c.capacity),
    lead: c.lead_coach_email ?? '',
    notes: c.schedule_notes ?? '',
  };
}

/**
 * Edit Cohort (admins): the seven fields of spec 2.10; only the fields the person changed reach the
 * outbox, based on the cohort as the form opened (S4). `cohort` is the live record: a change from
 * another device shows above the form, never in it (S18).
 */
export function CohortEditForm({ cohort, onSave }: { cohort: Cohort; onSave: (patch: Partial<CohortInput>, basis: EditBasis) => void }) {
  const edit = useRecordEdit(cohort, FIELDS);
  const [initial] = useState(() => inputsOf(edit.start));
  const [code, setCode] = useState(initial.code);
  const [status, setStatus] = useState<CohortStatus>(initial.status);
  const [start, setStart] = useState(initial.start);
  const [end, setEnd] = useState(initial.end);
  const [capacity, setCapacity] = useState(initial.capacity);
  const [lead, setLead] = useState(initial.lead);
  const [notes, setNotes] = useState(initial.notes);
  const [submitted, setSubmitted] = useState(false);
  const codes = useCohortCodes();
  const holder = codes?.get(codeKey(code));

  const errors = {
    code:
      code.trim() === ''
        ? 'Cohort code is required'
        : holder !== undefined && holder !== cohort.id
          ? duplicateCodeMessage(code) // issue #12.3
          : undefined,
    capacity: capacityError(capacity) ?? undefined,
    end: end && start && end < start ? 'End date must be on or after the start date' : undefined,
  };

  const values: Partial<CohortInput> = {
    cohort_code: code.trim(),
    status,
    start_date: start || null,
    end_date: end || null,
    // Spec 5: a capacity that does not parse as a number is saved as null (unlimited).
    capacity: parseCapacity(capacity),
    lead_coach_email: lead.trim() || null,
    schedule_notes: notes.trim() || null,
  };
  const touched = editedFields(edit.start, values, FIELDS);

  function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (errors.code || errors.capacity || errors.end) return;
    onSave(patchOf(values, touched), edit.basis);
  }

  /** The new values for the fields not touched; what was typed stays. */
  function takeNew() {
    const fresh = inputsOf(edit.takeNew(touched));
    const keep = (key: string) => touched.includes(key);
    if (!keep('cohort_code')) setCode(fresh.code);
    if (!keep('status')) setStatus(fresh.status);
    if (!keep('start_date')) setStart(fresh.start);
    if (!keep('end_date')) setEnd(fresh.end);
    if (!keep('capacity')) setCapacity(fresh.capacity);
    if (!keep('lead_coach_email')) setLead(fresh.lead);
    if (!keep('schedule_notes')) setNotes(fresh.notes);
  }

  // A taken code shows at once; the other messages after a first Save.
  const shown: Partial<typeof errors> = submitted ? errors : { code: holder !== undefined && holder !== cohort.id ? errors.code : undefined };
  return (
    <form id={COHORT_EDIT_FORM_ID} onSubmit={submit} noValidate>
      <ChangedElsewhereNotice changes={edit.changes} touched={touched} onTake={takeNew} />
      <FormSection title="Edit Cohort">
        <TextField label="Cohort Code" value={code} onChange={(e) => setCode(e.target.value)} error={shown.code} autoFocus />
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as CohortStatus)}
          options={STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
        />
        <TextField label="Start Date" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
        <TextField label="End Date" type="date" value={end} onChange={(e) => setEnd(e.target.value)} error={shown.end} />
        <TextField
          label="Capacity"
          inputMode="numeric"
          value={capacity}
          onChange={(e) => setCapacity(e.target.value)}
          hint="Leave empty for no limit"
          error={shown.capacity}
        />
        <TextField label="Lead Coach Email" type="email" value={lead} onChange={(e) => setLead(e.target.value)} />
        <TextAreaField label="Schedule Notes" rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} className="sm:col-span-2" />
      </FormSection>
    </form>
  );
}
