import type { ReactNode } from 'react';
import type { ParticipantFormErrors, ParticipantFormValues } from '../../../domain/participant-form';
import { ContactConsentSections } from './contact-consent-sections';
import { CustodySection } from './custody-section';
import { PersonalSection } from './personal-section';
import type { FieldSetter } from './use-participant-form';

/**
 * All sections of the participant form, shared by AddParticipant and the ParticipantDetail edit
 * mode. `afterPersonal` goes between the personal and custody sections, where both the date of
 * birth and the CDCR number are in view (AddParticipant's possible duplicates, issue #23.7).
 */
export function ParticipantFormSections({
  values,
  errors,
  set,
  afterPersonal,
}: {
  values: ParticipantFormValues;
  errors: ParticipantFormErrors;
  set: FieldSetter;
  afterPersonal?: ReactNode;
}) {
  return (
    <div className="space-y-6">
      <PersonalSection values={values} errors={errors} set={set} />
      {afterPersonal}
      <CustodySection values={values} set={set} />
      <ContactConsentSections values={values} set={set} />
    </div>
  );
}
