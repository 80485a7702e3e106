import { useCallback, useMemo, useState } from 'react';
import type { EditBasis } from '../../data/commands/record-writes';
import { changedSince, takeNewValues, type EditField, type FieldChange } from '../../domain/record-edit';

export type { EditField, FieldChange };

export interface RecordEdit<R> {
  /**
   * The record as the form opened (with any new values taken since): what the form starts from and
   * what its save compares with, so only the fields the person changed are sent (S4).
   */
  start: R;
  /** Fields another device changed since the form opened, with their new values (S18). */
  changes: FieldChange[];
  /** What the save is based on (S4): the start's values and the updated_date the form opened on. */
  basis: EditBasis;
  /** Takes the new values of the changed fields not in `touched`; returns the new start. */
  takeNew(touched: readonly string[]): R;
}

/**
 * An edit form's hold on its record (S18): the live record goes in (a query hook's value, updated
 * in place when a pull brings another device's change), the form keeps its own state seeded from
 * `start`, and never has it overwritten. `changes` feeds `ChangedElsewhereNotice`; `basis` goes
 * with the save so the engine can tell both-changed fields from one-side ones (S4).
 *
 *   const edit = useRecordEdit(cohort, COHORT_FIELDS);
 *   const [code, setCode] = useState(edit.start.cohort_code ?? '');
 *   <ChangedElsewhereNotice changes={edit.changes} touched={touched} onTake={() => …edit.takeNew(touched)…} />
 */
export function useRecordEdit<R extends { updated_date?: string | null }>(live: R, fields: readonly EditField[]): RecordEdit<R> {
  const [start, setStart] = useState(live);
  // The updated_date the form opened on stays the basis after values are taken: the fields the
  // person sends are still compared with what they saw (their base values), which is what S4 asks.
  const [openedOn] = useState(() => live.updated_date ?? null);
  const changes = useMemo(() => changedSince(start, live, fields), [start, live, fields]);
  const basis = useMemo<EditBasis>(
    () => ({ values: Object.fromEntries(fields.map((f) => [f.key, (start as Record<string, unknown>)[f.key] ?? null])), updated_date: openedOn }),
    [start, fields, openedOn],
  );
  const takeNew = useCallback(
    (touched: readonly string[]) => {
      const next = takeNewValues(start, live, fields, touched);
      setStart(next);
      return next;
    },
    [start, live, fields],
  );
  return { start, changes, basis, takeNew };
}
