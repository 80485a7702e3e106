/**
 * An edit form and the record it was opened from (S18, S4), as plain data: which fields another
 * device changed since the form opened (the live record against the form's start), how to show
 * their new values, and the start after the person takes the new values of fields they have not
 * touched. What the person typed is never part of this: the form keeps it.
 */
export interface EditField {
  key: string;
  /** The form's label for the field, without a required-field star. */
  label: string;
  /** How a value reads in the notice; default: text as stored, "Yes"/"No", lists joined. */
  show?: (value: unknown) => string;
}

export interface FieldChange {
  key: string;
  label: string;
  /** The new value, as the notice shows it. */
  value: string;
}

/** Empty (null, undefined, '') is one value; lists compare by content; anything else by ===. */
export function sameFieldValue(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameFieldValue(v, b[i]));
  return a === b;
}

/** The words the notice uses for a value. */
export function showFieldValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : '(empty)';
  return String(value);
}

/** The fields whose value on the live record is not the one the form started from. */
export function changedSince(start: object, live: object, fields: readonly EditField[]): FieldChange[] {
  const s = start as Record<string, unknown>;
  const l = live as Record<string, unknown>;
  return fields
    .filter((f) => !sameFieldValue(s[f.key], l[f.key]))
    .map((f) => ({ key: f.key, label: f.label, value: (f.show ?? showFieldValue)(l[f.key]) }));
}

/**
 * "Use the new values": the start with the live record's values for the changed fields the person
 * has not touched. Touched fields keep their start, so they still show as changed on both sides.
 */
export function takeNewValues<R extends object>(start: R, live: R, fields: readonly EditField[], touched: readonly string[]): R {
  const next = { ...start } as Record<string, unknown>;
  for (const change of changedSince(start, live, fields)) {
    if (!touched.includes(change.key)) next[change.key] = (live as Record<string, unknown>)[change.key];
  }
  return next as R;
}
