import { useState, type FormEvent } from 'react';
import type { Attendance } from '../../../shared/entities';
import type { EditBasis } from '../../data/commands/record-writes';
import { editedFields, type EditField } from '../../domain/record-edit';
import { Button } from '../../ui/button';
import { CONTROL_CLASS } from '../../ui/field';
import { ChangedElsewhereNotice } from '../parts/changed-elsewhere-notice';
import { useRecordEdit } from '../parts/use-record-edit';

/** The note as the notice names it (S18). */
const FIELDS: EditField[] = [{ key: 'note', label: 'Note' }];

/** A row tapped a moment ago may not have its record yet: the note starts empty. */
const NO_RECORD: Pick<Attendance, 'note'> & { updated_date?: string | null } = { note: null };

/**
 * A roster row's note (issue #23.3). `record` is the live attendance record: a note another coach
 * writes meanwhile shows above the input, never in it (S18). Save sends the note only when the
 * person changed it, based on the note the form opened with (S4); an untouched note just closes,
 * so it never writes the old words over the other coach's.
 */
export function NoteForm({ name, record, pending, onSave, onCancel }: {
  name: string;
  record: Attendance | null | undefined;
  pending: boolean;
  /** `basis` is absent when the form opened before the row had a record. */
  onSave: (note: string, basis?: EditBasis) => void;
  onCancel: () => void;
}) {
  const edit = useRecordEdit(record ?? NO_RECORD, FIELDS);
  const [openedOnRecord] = useState(() => Boolean(record));
  const [draft, setDraft] = useState(() => edit.start.note ?? '');
  const edited = editedFields(edit.start, { note: draft.trim() || null }, FIELDS);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!openedOnRecord) onSave(draft);
    else if (edited.length === 0) onCancel();
    else onSave(draft, edit.basis);
  }

  /** The new note, when the person has not changed theirs. */
  function takeNew() {
    const next = edit.takeNew(edited);
    if (edited.length === 0) setDraft(next.note ?? '');
  }

  return (
    <form className="flex basis-full flex-wrap items-center gap-2 sm:pl-[8.75rem]" onSubmit={submit}>
      <div className="basis-full">
        <ChangedElsewhereNotice changes={edit.changes} touched={edited} onTake={takeNew} />
      </div>
      <input
        aria-label={`Note for ${name}`}
        className={`${CONTROL_CLASS} min-w-0 flex-1 basis-56`}
        value={draft}
        maxLength={500}
        autoFocus
        onChange={(e) => setDraft(e.target.value)}
      />
      <Button type="submit" disabled={pending}>
        {pending ? 'Saving...' : 'Save note'}
      </Button>
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
    </form>
  );
}
