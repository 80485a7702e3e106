import { useState, type FormEvent } from 'react';
import type { ProgramInput } from '../../data/commands/programs';
import { CheckboxField, TextAreaField, TextField } from '../../ui/field';
import { FormActions } from '../../ui/form-actions';

export interface ProgramFormLabels {
  submit: string;
  pending: string;
}

/**
 * The program form of spec 2.11, for New Program and the inline edit: name (required), description,
 * active. Submit stays disabled while the name is empty; a blank name says 'Please enter a program name'.
 */
export function ProgramForm({ initial, labels, pending, onSubmit, onCancel }: {
  initial: ProgramInput;
  labels: ProgramFormLabels;
  /** The caller's save is running (its useCommand): submit shows `labels.pending` and is disabled. */
  pending: boolean;
  /** Saves; the caller closes the form when it succeeded and keeps it (with the input) when not. */
  onSubmit: (input: ProgramInput) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial.program_name ?? '');
  const [description, setDescription] = useState(initial.description ?? '');
  const [active, setActive] = useState(initial.active ?? true);
  const [error, setError] = useState<string | undefined>();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (pending) return;
    if (name.trim() === '') {
      setError('Please enter a program name');
      return;
    }
    onSubmit({ program_name: name.trim(), description: description.trim() || null, active });
  }

  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      <TextField
        label="Program Name *"
        value={name}
        autoFocus
        onChange={(e) => {
          setName(e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <TextAreaField label="Description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
      <CheckboxField label="Active Program" checked={active} onChange={(e) => setActive(e.target.checked)} />
      <FormActions canSubmit={name !== ''} pending={pending} labels={labels} onCancel={onCancel} />
    </form>
  );
}
