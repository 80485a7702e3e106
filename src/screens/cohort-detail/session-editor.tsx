import { useState, type FormEvent } from 'react';
import type { EditBasis } from '../../data/commands/record-writes';
import type { Session } from '../../../shared/entities';
import { formatDateTime } from '../../domain/format';
import { editedFields, keepTyped, patchOf, showFieldValue, type EditField } from '../../domain/record-edit';
import { checkSessionDraft, sessionDraftOf, sessionFieldsOf, type SessionDraft, type SessionDraftErrors } from '../../domain/session-form';
import { TextField } from '../../ui/field';
import { FormActions } from '../../ui/form-actions';
import { ChangedElsewhereNotice } from '../parts/changed-elsewhere-notice';
import { useRecordEdit } from '../parts/use-record-edit';

type Fields = Pick<Session, 'session_number' | 'topic' | 'scheduled_at'>;

/** The form's fields as the notice names them (S18). */
const FIELDS: EditField[] = [
  { key: 'session_number', label: 'Session Number' },
  { key: 'topic', label: 'Topic' },
  { key: 'scheduled_at', label: 'Date and time', show: (v) => (typeof v === 'string' && v ? formatDateTime(v, v) : showFieldValue(v)) },
];

/** Add Session: the `initial` draft, and all the fields on submit. */
interface NewProps {
  record?: undefined;
  initial: SessionDraft;
  onSubmit: (fields: Fields) => void;
}

/**
 * Edit: `record` is the live session: a change from another device shows above the form, never in
 * it (S18), and `onSave` gets only the fields the person changed, with the basis the form opened on (S4).
 */
interface EditProps {
  record: Session;
  onSave: (patch: Partial<Fields>, basis: EditBasis) => void;
}

/**
 * Issue #23.5: the inline form of 'Add Session' and of a session's Edit: number (the next one by
 * default), topic, date and time. Problems show under their fields on submit, in the spec's
 * 'Please enter …' words; the caller's command saves and closes it.
 */
export function SessionEditor(
  props: (NewProps | EditProps) & {
    /** The form's accessible name ('Add session', 'Edit Session 3'). */
    name: string;
    /** The cohort's other sessions: their numbers are taken. */
    others: ReadonlyArray<Pick<Session, 'session_number'>>;
    labels: { submit: string; pending: string };
    pending: boolean;
    onCancel: () => void;
  },
) {
  const { name, others, labels, pending, onCancel } = props;
  // A new session has no record to change underneath: the form starts from (and holds) its draft.
  const edit = useRecordEdit<Fields & { updated_date?: string | null }>(props.record ?? NO_RECORD, FIELDS);
  const [draft, setDraft] = useState(() => (props.record ? sessionDraftOf(edit.start) : props.initial));
  const [errors, setErrors] = useState<SessionDraftErrors>({});
  // What the person changed, input by input (a time that reads the same is not a change).
  const edited = props.record ? editedFields(sessionDraftOf(edit.start), draft, FIELDS) : [];
  const set = (field: keyof SessionDraft) => (e: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [field]: e.target.value }));
    setErrors((old) => ({ ...old, [field]: undefined }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (pending) return;
    const found = checkSessionDraft(draft, others);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (props.record) props.onSave(patchOf(sessionFieldsOf(draft), edited), edit.basis);
    else props.onSubmit(sessionFieldsOf(draft));
  }

  /** The new values for the fields not touched; what was typed stays. */
  function takeNew() {
    setDraft(keepTyped(sessionDraftOf(edit.takeNew(edited)), draft, edited));
  }

  return (
    <form aria-label={name} onSubmit={submit} noValidate className="space-y-3 rounded-lg border border-blue-200 bg-blue-50/40 p-4">
      <ChangedElsewhereNotice changes={edit.changes} touched={edited} onTake={takeNew} />
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr_14rem]">
        <TextField label="Session Number *" type="number" min={1} inputMode="numeric" value={draft.session_number} onChange={set('session_number')} error={errors.session_number} />
        <TextField label="Topic" value={draft.topic} onChange={set('topic')} placeholder="e.g. Budgeting basics" />
        <TextField label="Date and time *" type="datetime-local" value={draft.scheduled_at} onChange={set('scheduled_at')} error={errors.scheduled_at} />
      </div>
      <FormActions canSubmit pending={pending} labels={labels} onCancel={onCancel} />
    </form>
  );
}

/** Add Session's stand-in record: it never changes, so nothing shows above the form. */
const NO_RECORD: Fields = { session_number: null, topic: null, scheduled_at: null };
