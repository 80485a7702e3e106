import { useState, type FormEvent } from 'react';
import type { ProgramInput } from '../../data/commands/programs';
import type { EditBasis } from '../../data/commands/record-writes';
import type { Program } from '../../../shared/entities';
import { editedFields, keepTyped, patchOf, type EditField } from '../../domain/record-edit';
import { CheckboxField, TextAreaField, TextField } from '../../ui/field';
import { FormActions } from '../../ui/form-actions';
import { ChangedElsewhereNotice } from './changed-elsewhere-notice';
import { useRecordEdit } from './use-record-edit';

export interface ProgramFormLabels {
  submit: string;
  pending: string;
}

/** The form's fields as the notice names them (S18). */
const FIELDS: EditField[] = [
  { key: 'program_name', label: 'Program Name' },
  { key: 'description', label: 'Description' },
  { key: 'active', label: 'Active Program' },
];

interface Inputs {
  program_name: string;
  description: string;
  active: boolean;
}

const inputsOf = (p: ProgramInput): Inputs => ({ program_name: p.program_name ?? '', description: p.description ?? '', active: p.active ?? true });
const storedOf = (v: Inputs): ProgramInput => ({ program_name: v.program_name.trim(), description: v.description.trim() || null, active: v.active });

/** New Program: `initial` values, and the whole input on submit. */
interface NewProps {
  record?: undefined;
  initial: ProgramInput;
  onSubmit: (input: ProgramInput) => void;
}

/**
 * Edit: `record` is the live program (a query's value): a change from another device shows above
 * the form, never in it (S18), and `onSave` gets only the fields the person changed, with the
 * basis the form opened on (S4).
 */
interface EditProps {
  record: Program;
  onSave: (patch: Partial<ProgramInput>, basis: EditBasis) => void;
}

/**
 * The program form of spec 2.11, for New Program and the inline edit: name (required), description,
 * active. Submit stays disabled while the name is empty; a blank name says 'Please enter a program name'.
 */
export function ProgramForm(
  props: (NewProps | EditProps) & {
    labels: ProgramFormLabels;
    /** The caller's save is running (its useCommand): submit shows `labels.pending` and is disabled. */
    pending: boolean;
    onCancel: () => void;
  },
) {
  const { labels, pending, onCancel } = props;
  // A new program has no record to change underneath: its start is the initial values, held.
  const [blank] = useState(() => (props.record ? null : props.initial));
  const edit = useRecordEdit<ProgramInput & { updated_date?: string | null }>(props.record ?? blank!, FIELDS);
  const [values, setValues] = useState(() => inputsOf(edit.start));
  const [error, setError] = useState<string | undefined>();
  const stored = storedOf(values);
  const edited = editedFields(edit.start, stored, FIELDS);
  const set = <K extends keyof Inputs>(key: K, value: Inputs[K]) => setValues((v) => ({ ...v, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (pending) return;
    if (stored.program_name === '') {
      setError('Please enter a program name');
      return;
    }
    if (props.record) props.onSave(patchOf(stored, edited), edit.basis);
    else props.onSubmit(stored);
  }

  /** The new values for the fields not touched; what was typed stays. */
  function takeNew() {
    setValues(keepTyped(inputsOf(edit.takeNew(edited)), values, edited));
  }

  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      <ChangedElsewhereNotice changes={edit.changes} touched={edited} onTake={takeNew} />
      <TextField
        label="Program Name *"
        value={values.program_name}
        autoFocus
        onChange={(e) => {
          set('program_name', e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <TextAreaField label="Description" rows={3} value={values.description} onChange={(e) => set('description', e.target.value)} />
      <CheckboxField label="Active Program" checked={values.active} onChange={(e) => set('active', e.target.checked)} />
      <FormActions canSubmit={values.program_name !== ''} pending={pending} labels={labels} onCancel={onCancel} />
    </form>
  );
}
