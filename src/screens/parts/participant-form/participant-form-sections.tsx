import type { ParticipantFormErrors, ParticipantFormValues } from '../../../domain/participant-form';
import { ContactConsentSections } from './contact-consent-sections';
import { CustodySection } from './custody-section';
import { PersonalSection } from './personal-section';
import type { FieldSetter } from './use-participant-form';

/** All sections of the participant form, shared by AddParticipant and the ParticipantDetail edit mode. */
export function ParticipantFormSections({ values, errors, set }: { values: ParticipantFormValues; errors: ParticipantFormErrors; set: FieldSetter }) {
  return (
    <div className="space-y-6">
      <PersonalSection values={values} errors={errors} set={set} />
      <CustodySection values={values} set={set} />
      <ContactConsentSections values={values} set={set} />
    </div>
  );
}
