import type { CoachType, User } from '../../../shared/entities';
import type { CoachProfileFields } from '../../data/commands/profile';

/**
 * The coach profile form (spec.md 2.14, 5) as plain data: initial values from the user, the
 * checks, and the fields to save. Both readings of the required rule hold at once: coach type,
 * phone, organization and professional background are all required.
 */
export interface ProfileFormValues {
  coach_type: string;
  phone: string;
  organization: string;
  years_experience: string;
  linkedin_url: string;
  areas_of_expertise: string;
  bio: string;
  certifications: string;
  emergency_contact_name: string;
  emergency_contact_phone: string;
}

export type ProfileFormErrors = Partial<Record<keyof ProfileFormValues, string>>;

export const COACH_TYPES: { value: CoachType; label: string }[] = [
  { value: 'lead_coach', label: 'Lead Coach' },
  { value: 'support_coach', label: 'Support Coach' },
  { value: 'case_manager', label: 'Case Manager' },
  { value: 'volunteer', label: 'Volunteer' },
  { value: 'other', label: 'Other' },
];

export const REQUIRED_FIELDS: (keyof ProfileFormValues)[] = ['coach_type', 'phone', 'organization', 'bio'];
export const REQUIRED_MESSAGE = 'Please fill in all required fields';

export function initialProfileForm(user: Partial<User> | null): ProfileFormValues {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return {
    coach_type: user?.coach_type || 'support_coach',
    phone: text(user?.phone),
    organization: text(user?.organization),
    years_experience: text(user?.years_experience),
    linkedin_url: text(user?.linkedin_url),
    areas_of_expertise: text(user?.areas_of_expertise),
    bio: text(user?.bio),
    certifications: text(user?.certifications),
    emergency_contact_name: text(user?.emergency_contact_name),
    emergency_contact_phone: text(user?.emergency_contact_phone),
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function validateProfileForm(values: ProfileFormValues): ProfileFormErrors {
  const errors: ProfileFormErrors = {};
  for (const field of REQUIRED_FIELDS) {
    if (!values[field].trim()) errors[field] = 'Required';
  }
  const years = values.years_experience.trim();
  if (years && (!/^\d+(\.\d+)?$/.test(years) || Number(years) < 0)) errors.years_experience = 'Enter a number of years, 0 or more';
  const linkedin = values.linkedin_url.trim();
  if (linkedin && !isHttpUrl(linkedin)) errors.linkedin_url = 'Enter a full web address, starting with https://';
  return errors;
}

/** The labels of the fields that can be wrong in other ways than missing. */
const FIELD_LABELS: Partial<Record<keyof ProfileFormValues, string>> = {
  years_experience: 'Years of Experience',
  linkedin_url: 'LinkedIn Profile',
};

/**
 * What the failure toast says (issue #12.6): the spec's 'Please fill in all required fields' when a
 * required field is empty; otherwise what is wrong and where, e.g. 'LinkedIn Profile: Enter a full
 * web address, starting with https://' (the spec is silent on these messages; the wording is ours).
 */
export function problemSummary(errors: ProfileFormErrors): string | null {
  if (hasMissingRequired(errors)) return REQUIRED_MESSAGE;
  const problems = (Object.keys(FIELD_LABELS) as (keyof ProfileFormValues)[])
    .filter((f) => errors[f])
    .map((f) => `${FIELD_LABELS[f]}: ${errors[f]}`);
  return problems.length ? problems.join('. ') : null;
}

export function hasMissingRequired(errors: ProfileFormErrors): boolean {
  return REQUIRED_FIELDS.some((f) => errors[f]);
}

/** What is saved: trimmed text, empty optional text as null, years as a whole number. */
export function toProfileFields(values: ProfileFormValues): Partial<CoachProfileFields> {
  const optional = (v: string) => (v.trim() ? v.trim() : null);
  const years = values.years_experience.trim();
  return {
    coach_type: values.coach_type as CoachType,
    phone: values.phone.trim(),
    organization: values.organization.trim(),
    years_experience: years ? Math.trunc(Number(years)) : null,
    linkedin_url: optional(values.linkedin_url),
    areas_of_expertise: optional(values.areas_of_expertise),
    bio: values.bio.trim(),
    certifications: optional(values.certifications),
    emergency_contact_name: optional(values.emergency_contact_name),
    emergency_contact_phone: optional(values.emergency_contact_phone),
  };
}
