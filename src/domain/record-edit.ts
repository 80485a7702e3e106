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

/**
 * The fields the person changed: those whose value in the form (as it would be stored) is not the
 * start's. A form saves only these (S4), and the notice marks them 'you changed this too'.
 */
export function editedFields(start: object, values: object, fields: readonly EditField[]): string[] {
  const s = start as Record<string, unknown>;
  const v = values as Record<string, unknown>;
  return fields.map((f) => f.key).filter((k) => !sameFieldValue(v[k], s[k]));
}

/** The save's patch: the form's values of the edited fields only. */
export function patchOf<V extends object>(values: V, edited: readonly string[]): Partial<V> {
  return Object.fromEntries(edited.map((k) => [k, (values as Record<string, unknown>)[k]])) as Partial<V>;
}

/**
 * What the inputs show after "Use the new values": the inputs of the new start, except the fields
 * the person changed, which keep what they typed. `fresh` and `typed` are keyed by field.
 */
export function keepTyped<V extends object>(fresh: V, typed: V, edited: readonly string[]): V {
  const next = { ...fresh } as Record<string, unknown>;
  for (const k of edited) if (Object.hasOwn(typed, k)) next[k] = (typed as Record<string, unknown>)[k];
  return next as V;
}
