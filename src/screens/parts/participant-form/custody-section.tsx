import type { CustodyStatus } from '../../../../shared/entities';
import { CUSTODY_OPTIONS, type ParticipantFormValues } from '../../../domain/participant-form';
import { FormSection, SelectField, TextAreaField, TextField } from '../../../ui/field';
import { fieldId, type FieldSetter } from './use-participant-form';

/** Spec 2.6 'Custody Information'. */
export function CustodySection({ values, set }: { values: ParticipantFormValues; set: FieldSetter }) {
  return (
    <FormSection title="Custody Information">
      <SelectField
        id={fieldId('custody_status')}
        label="Custody Status"
        options={CUSTODY_OPTIONS}
        value={values.custody_status}
        onChange={(e) => set('custody_status', e.target.value as CustodyStatus)}
      />
      <TextField
        id={fieldId('cdcr_number')}
        label="CDCR Number"
        placeholder="If still incarcerated"
        value={values.cdcr_number}
        onChange={(e) => set('cdcr_number', e.target.value)}
        autoComplete="off"
      />
      <TextField
        id={fieldId('case_manager')}
        label="Case Manager"
        className="sm:col-span-2"
        value={values.case_manager}
        onChange={(e) => set('case_manager', e.target.value)}
        autoComplete="off"
      />
      <TextField
        id={fieldId('projected_release_date')}
        label="Projected Release Date"
        type="date"
        value={values.projected_release_date}
        onChange={(e) => set('projected_release_date', e.target.value)}
      />
      <TextField
        id={fieldId('actual_release_date')}
        label="Actual Release Date"
        type="date"
        value={values.actual_release_date}
        onChange={(e) => set('actual_release_date', e.target.value)}
      />
      <TextAreaField
        id={fieldId('address_on_release')}
        label="Address on Release"
        rows={2}
        className="sm:col-span-2"
        value={values.address_on_release}
        onChange={(e) => set('address_on_release', e.target.value)}
      />
    </FormSection>
  );
}
