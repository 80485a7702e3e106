import { useState, type FormEvent } from 'react';
import type { CohortInput } from '../../data/commands/cohorts';
import type { Cohort, CohortStatus } from '../../../shared/entities';
import { capacityError, parseCapacity } from '../../domain/capacity';
import { codeKey, duplicateCodeMessage } from '../../domain/cohort-code';
import { useCohortCodes } from '../../data/queries/cohorts';
import { FormSection, SelectField, TextAreaField, TextField } from '../../ui/field';

/** The header's Save button submits this form by id (spec 2.10: edit mode buttons are Cancel and Save). */
export const COHORT_EDIT_FORM_ID = 'cohort-edit-form';

const STATUSES: CohortStatus[] = ['planned', 'active', 'completed'];

/** Edit Cohort (admins): the seven fields of spec 2.10; only changed fields reach the outbox. */
export function CohortEditForm({ cohort, onSave }: { cohort: Cohort; onSave: (patch: Partial<CohortInput>) => void }) {
  const [code, setCode] = useState(cohort.cohort_code ?? '');
  const [status, setStatus] = useState<CohortStatus>(cohort.status || 'planned');
  const [start, setStart] = useState(cohort.start_date ?? '');
  const [end, setEnd] = useState(cohort.end_date ?? '');
  const [capacity, setCapacity] = useState(cohort.capacity == null ? '' : String(cohort.capacity));
  const [lead, setLead] = useState(cohort.lead_coach_email ?? '');
  const [notes, setNotes] = useState(cohort.schedule_notes ?? '');
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

  function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (errors.code || errors.capacity || errors.end) return;
    onSave({
      cohort_code: code.trim(),
      status,
      start_date: start || null,
      end_date: end || null,
      // Spec 5: a capacity that does not parse as a number is saved as null (unlimited).
      capacity: parseCapacity(capacity),
      lead_coach_email: lead.trim() || null,
      schedule_notes: notes.trim() || null,
    });
  }

  // A taken code shows at once; the other messages after a first Save.
  const shown: Partial<typeof errors> = submitted ? errors : { code: holder !== undefined && holder !== cohort.id ? errors.code : undefined };
  return (
    <form id={COHORT_EDIT_FORM_ID} onSubmit={submit} noValidate>
      <FormSection title="Edit Cohort">
        <TextField label="Cohort Code" value={code} onChange={(e) => setCode(e.target.value)} error={shown.code} autoFocus />
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as CohortStatus)}
          options={STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))}
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
