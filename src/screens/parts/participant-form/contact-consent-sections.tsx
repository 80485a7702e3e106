import type { ParticipantFormValues } from '../../../domain/participant-form';
import { CheckboxField, FormSection, TextField } from '../../../ui/field';
import { fieldId, type FieldSetter } from './use-participant-form';

/** Spec 2.6 'Emergency Contact' and 'Consent'. */
export function ContactConsentSections({ values, set }: { values: ParticipantFormValues; set: FieldSetter }) {
  return (
    <>
      <FormSection title="Emergency Contact">
        <TextField
          id={fieldId('emergency_contact_name')}
          label="Contact Name"
          value={values.emergency_contact_name}
          onChange={(e) => set('emergency_contact_name', e.target.value)}
          autoComplete="off"
        />
        <TextField
          id={fieldId('emergency_contact_phone')}
          label="Contact Phone"
          type="tel"
          value={values.emergency_contact_phone}
          onChange={(e) => set('emergency_contact_phone', e.target.value)}
          autoComplete="off"
        />
        <TextField
          id={fieldId('emergency_contact_relationship')}
          label="Relationship"
          placeholder="e.g., Mother, Spouse, Friend"
          value={values.emergency_contact_relationship}
          onChange={(e) => set('emergency_contact_relationship', e.target.value)}
          autoComplete="off"
        />
      </FormSection>
      <FormSection title="Consent">
        <CheckboxField
          id={fieldId('consent_signed')}
          label="Consent Signed"
          className="sm:col-span-2"
          checked={values.consent_signed}
          onChange={(e) => set('consent_signed', e.target.checked)}
        />
        <TextField id={fieldId('consent_date')} label="Consent Date" type="date" value={values.consent_date} onChange={(e) => set('consent_date', e.target.value)} />
      </FormSection>
    </>
  );
}
