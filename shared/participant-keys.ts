/**
 * Issue #23.7: the CDCR number as a key, the same on the tablet (domain/duplicate-candidates.ts)
 * and the server (the 409 of a create that repeats one, and the look-up beyond the tablet).
 * "AB-1234", "ab 1234" and "AB1234" are one number: every character but an ASCII letter or digit
 * goes, then upper case. The server's index computes the same in SQL (server/store/schema.ts,
 * `upper(regexp_replace(data->>'cdcr_number', '[^A-Za-z0-9]', '', 'g'))`): strip first, then
 * upper case, so a letter whose upper case is two ASCII letters (ß → SS) is dropped on both sides.
 */
export function cdcrKey(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const key = value.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return key === '' ? null : key;
}

/** The field a participant create lists the ids a coach reviewed and marked as another person in. */
export const DIFFERENT_PERSON_FIELD = 'different_person_from';
