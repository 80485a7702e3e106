import { toDate } from './format';

/**
 * Age in whole years from a date of birth (spec section 5, AddParticipant): the difference of the
 * years, minus one when this year's birthday has not come yet. A 29 February birthday counts as
 * not yet come on 28 February of a common year (the spec's literal month/day comparison).
 * Returns null for an empty or unparseable date, and for a date of birth after `today` (a typo in
 * progress, e.g. year 2102 while typing, must not fill the age with a negative number).
 */
export function ageFromDob(dob: string | null | undefined, today: Date = new Date()): number | null {
  const birth = toDate(dob);
  if (!birth) return null;
  let age = today.getFullYear() - birth.getFullYear();
  const beforeBirthday =
    today.getMonth() < birth.getMonth() || (today.getMonth() === birth.getMonth() && today.getDate() < birth.getDate());
  if (beforeBirthday) age -= 1;
  return age >= 0 ? age : null;
}
