import { useCallback, useState } from 'react';
import { ageFromDob } from '../../../domain/age';
import {
  TEXT_FIELDS,
  validateParticipantForm,
  type ParticipantFormErrors,
  type ParticipantFormValues,
} from '../../../domain/participant-form';

export type FieldSetter = <K extends keyof ParticipantFormValues>(field: K, value: ParticipantFormValues[K]) => void;

/** The id of a field's input, so a failed submit can move focus to the first invalid one. */
export function fieldId(field: keyof ParticipantFormValues): string {
  return `participant-${field.replace(/_/g, '-')}`;
}

/**
 * State of the participant form (AddParticipant and the inline edit of ParticipantDetail):
 * values, inline errors, and the age filled in from the date of birth (spec 5) — recomputed each
 * time the date changes, and still editable by hand afterwards.
 */
export function useParticipantForm(initial: () => ParticipantFormValues) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<ParticipantFormErrors>({});

  const set: FieldSetter = useCallback((field, value) => {
    setValues((v) => {
      const next = { ...v, [field]: value };
      if (field === 'date_of_birth') {
        const age = ageFromDob(value as string, new Date());
        next.age = age === null ? '' : String(age);
      }
      return next;
    });
    // A field being corrected loses its message at once; the others wait for the next submit.
    setErrors((e) => (field in e ? { ...e, [field]: undefined } : e));
  }, []);

  /** Validates; on errors shows them and focuses the first invalid field. True when valid. */
  const validate = useCallback((): boolean => {
    const found = validateParticipantForm(values);
    setErrors(found);
    const first = TEXT_FIELDS.find((f) => found[f]);
    if (first) document.getElementById(fieldId(first))?.focus();
    return first === undefined;
  }, [values]);

  const reset = useCallback((v: ParticipantFormValues) => {
    setValues(v);
    setErrors({});
  }, []);

  return { values, errors, set, validate, reset };
}
