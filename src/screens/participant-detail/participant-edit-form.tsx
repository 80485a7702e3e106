import { useEffect, type FormEvent } from 'react';
import { updateParticipant } from '../../data/commands/participants';
import type { EditBasis } from '../../data/commands/record-writes';
import type { Participant } from '../../../shared/entities';
import { CUSTODY_OPTIONS, formFromParticipant, GENDER_OPTIONS, toPatch, type ParticipantFormValues } from '../../domain/participant-form';
import { showFieldValue, type EditField } from '../../domain/record-edit';
import { ChangedElsewhereNotice } from '../parts/changed-elsewhere-notice';
import { useRecordEdit } from '../parts/use-record-edit';
import { ParticipantFormSections } from '../parts/participant-form/participant-form-sections';
import { fieldId, useParticipantForm } from '../parts/participant-form/use-participant-form';
import { useCommand } from '../parts/use-command';
import { Button } from '../../ui/button';

const optionLabel = (options: { value: string; label: string }[]) => (v: unknown) => options.find((o) => o.value === v)?.label ?? showFieldValue(v);

/** The form's fields as the notice names them (S18): the labels of the sections. */
const FIELDS: EditField[] = [
  { key: 'academy_uid', label: 'UID' },
  { key: 'first_name', label: 'First Name' },
  { key: 'last_name', label: 'Last Name' },
  { key: 'middle_name', label: 'Middle Name' },
  { key: 'date_of_birth', label: 'Date of Birth' },
  { key: 'age', label: 'Age' },
  { key: 'gender', label: 'Gender', show: optionLabel(GENDER_OPTIONS) },
  { key: 'phone', label: 'Phone' },
  { key: 'email', label: 'Email' },
  { key: 'address', label: 'Current Address' },
  { key: 'custody_status', label: 'Custody Status', show: optionLabel(CUSTODY_OPTIONS) },
  { key: 'cdcr_number', label: 'CDCR Number' },
  { key: 'case_manager', label: 'Case Manager' },
  { key: 'projected_release_date', label: 'Projected Release Date' },
  { key: 'actual_release_date', label: 'Actual Release Date' },
  { key: 'address_on_release', label: 'Address on Release' },
  { key: 'emergency_contact_name', label: 'Contact Name' },
  { key: 'emergency_contact_phone', label: 'Contact Phone' },
  { key: 'emergency_contact_relationship', label: 'Relationship' },
  { key: 'consent_signed', label: 'Consent Signed' },
  { key: 'consent_date', label: 'Consent Date' },
];

/**
 * Inline edit of ParticipantDetail (spec 2.7): the AddParticipant sections, filled in. Saves only
 * the fields that changed since editing began (updateParticipant queues them for the server, S4),
 * so it works offline; on failure the form stays open with the person's input. `participant` is
 * the live record: when another device changes it meanwhile, the form keeps what was typed and
 * says what changed (S18).
 */
export function ParticipantEditForm({ participant, onDone }: { participant: Participant; onDone: () => void }) {
  const edit = useRecordEdit(participant, FIELDS);
  const { values, errors, set, validate, reset } = useParticipantForm(() => formFromParticipant(edit.start));
  const touched = Object.keys(toPatch(edit.start, values));
  const update = useCommand((data, patch: ReturnType<typeof toPatch>, basis: EditBasis) => updateParticipant(data, participant.id, patch, basis), {
    success: 'Participant updated successfully!',
    // The spec shows no failure for this edit (spec.md 8); the words are ours.
    failure: 'Failed to update participant. Your changes are still in the form.',
    onSuccess: onDone,
  });

  // Switching to edit mode moves focus into the form, so keyboard and screen-reader users land where the change happened.
  useEffect(() => document.getElementById(fieldId('academy_uid'))?.focus(), []);

  function save(e: FormEvent) {
    e.preventDefault();
    if (update.pending || !validate()) return;
    const patch = toPatch(edit.start, values);
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    void update.run(patch, edit.basis);
  }

  /** The new values for the fields not touched; what was typed stays. */
  function takeNew() {
    const fresh = formFromParticipant(edit.takeNew(touched));
    const kept = Object.fromEntries(Object.entries(values).filter(([f]) => touched.includes(f))) as Partial<ParticipantFormValues>;
    reset({ ...fresh, ...kept });
  }

  return (
    <form noValidate onSubmit={save} aria-label="Edit participant">
      <ChangedElsewhereNotice changes={edit.changes} touched={touched} onTake={takeNew} />
      <ParticipantFormSections values={values} errors={errors} set={set} />
      {/* Sticky (issue #12.8): on a tablet the form is several screens long; Save stays in reach. */}
      <div
        data-testid="edit-actions"
        className="sticky bottom-0 z-10 -mx-4 mt-6 flex flex-col-reverse gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:flex-row sm:justify-end sm:px-6 lg:-mx-8 lg:px-8"
      >
        <Button variant="secondary" onClick={onDone} disabled={update.pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.pending}>
          {update.pending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
