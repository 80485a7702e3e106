import type { ParticipantFormErrors, ParticipantFormValues } from '../../../domain/participant-form';
import { GENDER_OPTIONS } from '../../../domain/participant-form';
import type { Gender } from '../../../../shared/entities';
import { FormSection, SelectField, TextAreaField, TextField } from '../../../ui/field';
import { fieldId, type FieldSetter } from './use-participant-form';

/** Spec 2.6 'Personal Information'. */
export function PersonalSection({ values, errors, set }: { values: ParticipantFormValues; errors: ParticipantFormErrors; set: FieldSetter }) {
  return (
    <FormSection title="Personal Information">
      <TextField id={fieldId('academy_uid')} label="UID" value={values.academy_uid} onChange={(e) => set('academy_uid', e.target.value)} autoComplete="off" />
      <div className="hidden sm:block" aria-hidden="true" />
      <TextField
        id={fieldId('first_name')}
        label="First Name *"
        value={values.first_name}
        onChange={(e) => set('first_name', e.target.value)}
        error={errors.first_name}
        aria-required="true"
        autoComplete="off"
      />
      <TextField
        id={fieldId('last_name')}
        label="Last Name *"
        value={values.last_name}
        onChange={(e) => set('last_name', e.target.value)}
        error={errors.last_name}
        aria-required="true"
        autoComplete="off"
      />
      <TextField id={fieldId('middle_name')} label="Middle Name" value={values.middle_name} onChange={(e) => set('middle_name', e.target.value)} autoComplete="off" />
      <TextField id={fieldId('date_of_birth')} label="Date of Birth" type="date" value={values.date_of_birth} onChange={(e) => set('date_of_birth', e.target.value)} />
      <TextField
        id={fieldId('age')}
        label="Age"
        type="number"
        min={0}
        max={120}
        step={1}
        inputMode="numeric"
        placeholder="Calculated from DOB"
        value={values.age}
        onChange={(e) => set('age', e.target.value)}
        error={errors.age}
      />
      <SelectField
        id={fieldId('gender')}
        label="Gender"
        options={GENDER_OPTIONS}
        value={values.gender}
        onChange={(e) => set('gender', e.target.value as Gender)}
      />
      <TextField id={fieldId('phone')} label="Phone" type="tel" value={values.phone} onChange={(e) => set('phone', e.target.value)} autoComplete="off" />
      <TextField
        id={fieldId('email')}
        label="Email"
        type="email"
        value={values.email}
        onChange={(e) => set('email', e.target.value)}
        error={errors.email}
        autoComplete="off"
      />
      <TextAreaField
        id={fieldId('address')}
        label="Current Address"
        rows={2}
        className="sm:col-span-2"
        value={values.address}
        onChange={(e) => set('address', e.target.value)}
      />
    </FormSection>
  );
}
