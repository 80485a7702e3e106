import type { CustodyStatus, Gender, Participant } from '../../shared/entities';

/**
 * The participant form (spec 2.6 AddParticipant, 2.7 inline edit) as plain data: what the inputs
 * hold (strings and one boolean), the validation of spec 5 plus the checks a coach would expect,
 * and the mapping to the record — `toCreateInput` for a new participant, `toPatch` for the
 * changed fields of an edit (S4: an update sends only what changed).
 */
export const TEXT_FIELDS = [
  'academy_uid',
  'first_name',
  'last_name',
  'middle_name',
  'date_of_birth',
  'age',
  'phone',
  'email',
  'address',
  'cdcr_number',
  'case_manager',
  'projected_release_date',
  'actual_release_date',
  'address_on_release',
  'emergency_contact_name',
  'emergency_contact_phone',
  'emergency_contact_relationship',
  'consent_date',
] as const;

export type TextField = (typeof TEXT_FIELDS)[number];

export type ParticipantFormValues = Record<TextField, string> & {
  gender: Gender;
  custody_status: CustodyStatus;
  consent_signed: boolean;
};

export type ParticipantFormErrors = Partial<Record<TextField, string>>;

export const GENDER_OPTIONS: { value: Gender; label: string }[] = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
  { value: 'nonbinary', label: 'Nonbinary' },
  { value: 'prefer not to say', label: 'Prefer not to say' },
];

export const CUSTODY_OPTIONS: { value: CustodyStatus; label: string }[] = [
  { value: 'in-custody', label: 'In Custody' },
  { value: 'released', label: 'Released' },
];

/** Defaults of spec section 9: gender male, custody in-custody, everything else empty. */
export function emptyParticipantForm(): ParticipantFormValues {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, ''])) as Record<TextField, string>;
  return { ...text, gender: 'male', custody_status: 'in-custody', consent_signed: false };
}

/** The form as it starts when editing an existing participant. */
export function formFromParticipant(p: Participant): ParticipantFormValues {
  const values = emptyParticipantForm();
  for (const f of TEXT_FIELDS) {
    const v = p[f];
    values[f] = v === null || v === undefined ? '' : String(v);
  }
  if (p.gender) values.gender = p.gender;
  if (p.custody_status) values.custody_status = p.custody_status;
  values.consent_signed = p.consent_signed === true;
  return values;
}

// Loose on purpose: it catches a forgotten '@' or domain, not every RFC 5322 corner.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// 0–120: a whole number a person can be; the input is type=number but a paste can still bring '12.5'.
const MAX_AGE = 120;

export function validateParticipantForm(v: ParticipantFormValues): ParticipantFormErrors {
  const errors: ParticipantFormErrors = {};
  if (!v.first_name.trim()) errors.first_name = 'First name is required';
  if (!v.last_name.trim()) errors.last_name = 'Last name is required';
  if (v.age.trim() && parseAge(v.age) === null) errors.age = `Age must be a whole number from 0 to ${MAX_AGE}`;
  if (v.email.trim() && !EMAIL.test(v.email.trim())) errors.email = 'Enter a valid email address, like name@example.org';
  return errors;
}

/** The age as an integer (spec 5: sent as an integer), or null when empty or not a whole number in range. */
export function parseAge(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number.parseInt(t, 10);
  return n <= MAX_AGE ? n : null;
}

/** The record value of each form field: trimmed text, null when empty; age an integer. */
function recordValues(v: ParticipantFormValues): Partial<Participant> {
  const out: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) {
    const t = v[f].trim();
    out[f] = f === 'age' ? parseAge(t) : t === '' ? null : t;
  }
  out.gender = v.gender;
  out.custody_status = v.custody_status;
  out.consent_signed = v.consent_signed;
  return out as Partial<Participant>;
}

export type ParticipantCreateInput = Omit<Participant, 'id'>;

/**
 * A new participant's record: empty fields are left out (the server stores nothing for them).
 * program_status 'active' and enrollment_date today are set here because the list's status filter
 * and its newest-first sort (spec 2.5) read them and the spec does not say who sets them: without
 * them a new participant would sort last and match no status filter but 'All Status'.
 */
export function toCreateInput(v: ParticipantFormValues, todayIso: string): ParticipantCreateInput {
  const values = recordValues(v);
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(values)) if (val !== null) out[k] = val;
  out.program_status = 'active';
  out.enrollment_date = todayIso;
  return out as ParticipantCreateInput;
}

/**
 * Only the fields the person changed, compared with the form as it opened (so a participant whose
 * gender was never recorded is not silently saved as the select's first option); a cleared field
 * becomes null, the age an integer.
 */
export function toPatch(original: Participant, v: ParticipantFormValues): Partial<Participant> {
  const initial = formFromParticipant(original);
  const values = recordValues(v) as Record<string, unknown>;
  const patch: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) if (initial[f].trim() !== v[f].trim()) patch[f] = values[f];
  if (initial.gender !== v.gender) patch.gender = v.gender;
  if (initial.custody_status !== v.custody_status) patch.custody_status = v.custody_status;
  if (initial.consent_signed !== v.consent_signed) patch.consent_signed = v.consent_signed;
  return patch as Partial<Participant>;
}
