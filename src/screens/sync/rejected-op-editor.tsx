import { useMemo, useState, type FormEvent } from 'react';
import { CheckboxField, TextField } from '../../ui/field';
import { Button } from '../../ui/button';
import { fieldLabel } from './describe-op';
import { editableFields, parseEdits } from './edit-fields';

/**
 * Inline form to correct a rejected op's values, then send it again (S8 'edit'). The save is the
 * card's (its useCommand): `saving` while it runs, `failure` when it did not work.
 */
export function RejectedOpEditor({
  data,
  saving,
  failure,
  onSave,
  onCancel,
}: {
  data: Record<string, unknown>;
  saving: boolean;
  failure: string | null;
  onSave: (changed: Record<string, unknown>) => void;
  onCancel: () => void;
}) {
  const fields = useMemo(() => editableFields(data), [data]);
  const [typed, setTyped] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, f.initial])));
  // A typed value that cannot be read back (a number field): said beside that field, nothing sent.
  const [invalid, setInvalid] = useState<{ field: string; message: string } | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const parsed = parseEdits(fields, typed);
    if (!parsed.ok) {
      setInvalid({ field: parsed.field, message: parsed.message });
      return;
    }
    setInvalid(null);
    onSave(parsed.data);
  };

  if (fields.length === 0) {
    return (
      <div className="mt-3 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
        This change has no fields that can be edited here. Retry it or discard it.
        <div className="mt-2">
          <Button variant="secondary" onClick={onCancel}>
            Close
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="mt-3 space-y-3 rounded-lg bg-slate-50 p-3" aria-label="Edit the rejected change">
      <div className="grid gap-3 sm:grid-cols-2">
        {fields.map((f) =>
          f.kind === 'boolean' ? (
            <CheckboxField
              key={f.name}
              label={fieldLabel(f.name)}
              checked={typed[f.name] === 'true'}
              onChange={(e) => setTyped((t) => ({ ...t, [f.name]: String(e.target.checked) }))}
            />
          ) : (
            <TextField
              key={f.name}
              label={fieldLabel(f.name)}
              inputMode={f.kind === 'number' ? 'decimal' : undefined}
              value={typed[f.name]}
              error={invalid?.field === f.name ? invalid.message : undefined}
              onChange={(e) => setTyped((t) => ({ ...t, [f.name]: e.target.value }))}
            />
          ),
        )}
      </div>
      {failure && !invalid && (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      )}
      <div className="flex gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save and retry'}
        </Button>
      </div>
    </form>
  );
}
