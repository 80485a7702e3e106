import { useState, type FormEvent } from 'react';
import type { Session } from '../../../shared/entities';
import { checkSessionDraft, sessionFieldsOf, type SessionDraft, type SessionDraftErrors } from '../../domain/session-form';
import { TextField } from '../../ui/field';
import { FormActions } from '../../ui/form-actions';

/**
 * Issue #23.5: the inline form of 'Add Session' and of a session's Edit: number (the next one by
 * default), topic, date and time. Problems show under their fields on submit, in the spec's
 * 'Please enter …' words; the caller's command saves and closes it.
 */
export function SessionEditor({ name, initial, others, labels, pending, onSubmit, onCancel }: {
  /** The form's accessible name ('Add session', 'Edit Session 3'). */
  name: string;
  initial: SessionDraft;
  /** The cohort's other sessions: their numbers are taken. */
  others: ReadonlyArray<Pick<Session, 'session_number'>>;
  labels: { submit: string; pending: string };
  pending: boolean;
  onSubmit: (fields: Pick<Session, 'session_number' | 'topic' | 'scheduled_at'>) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<SessionDraftErrors>({});
  const set = (field: keyof SessionDraft) => (e: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [field]: e.target.value }));
    setErrors((old) => ({ ...old, [field]: undefined }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (pending) return;
    const found = checkSessionDraft(draft, others);
    setErrors(found);
    if (Object.keys(found).length === 0) onSubmit(sessionFieldsOf(draft));
  }

  return (
    <form aria-label={name} onSubmit={submit} noValidate className="space-y-3 rounded-lg border border-blue-200 bg-blue-50/40 p-4">
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr_14rem]">
        <TextField label="Session Number *" type="number" min={1} inputMode="numeric" value={draft.session_number} onChange={set('session_number')} error={errors.session_number} />
        <TextField label="Topic" value={draft.topic} onChange={set('topic')} placeholder="e.g. Budgeting basics" />
        <TextField label="Date and time *" type="datetime-local" value={draft.scheduled_at} onChange={set('scheduled_at')} error={errors.scheduled_at} />
      </div>
      <FormActions canSubmit pending={pending} labels={labels} onCancel={onCancel} />
    </form>
  );
}
