import { useState, type FormEvent } from 'react';
import type { EditBasis } from '../../data/commands/record-writes';
import type { SiteInput } from '../../data/commands/sites';
import type { Site, SiteType } from '../../../shared/entities';
import { editedFields, keepTyped, patchOf, showFieldValue, type EditField } from '../../domain/record-edit';
import { CheckboxField, SelectField, TextField } from '../../ui/field';
import { FormActions } from '../../ui/form-actions';
import { ChangedElsewhereNotice } from '../parts/changed-elsewhere-notice';
import { useRecordEdit } from '../parts/use-record-edit';

const SITE_TYPES: { value: SiteType; label: string }[] = [
  { value: 'prison', label: 'Prison' },
  { value: 'juvenile', label: 'Juvenile' },
  { value: 'fire_camp', label: 'Fire Camp' },
  { value: 'community', label: 'Community' },
];

/** The form's fields as the notice names them (S18). */
const FIELDS: EditField[] = [
  { key: 'site_name', label: 'Site Name' },
  { key: 'site_type', label: 'Site Type', show: (v) => SITE_TYPES.find((t) => t.value === v)?.label ?? showFieldValue(v) },
  { key: 'city', label: 'City' },
  { key: 'county', label: 'County' },
  { key: 'region', label: 'Region' },
  { key: 'active', label: 'Active Site' },
];

interface Inputs {
  site_name: string;
  site_type: SiteType;
  city: string;
  county: string;
  region: string;
  active: boolean;
}

const inputsOf = (s: SiteInput): Inputs => ({
  site_name: s.site_name ?? '',
  site_type: s.site_type ?? 'prison',
  city: s.city ?? '',
  county: s.county ?? '',
  region: s.region ?? '',
  active: s.active ?? true,
});
const storedOf = (v: Inputs): SiteInput => ({
  site_name: v.site_name.trim(),
  site_type: v.site_type,
  city: v.city.trim() || null,
  county: v.county.trim() || null,
  region: v.region.trim() || null,
  active: v.active,
});

/** New Site: `initial` values, and the whole input on submit. */
interface NewProps {
  record?: undefined;
  initial: SiteInput;
  onSubmit: (input: SiteInput) => void;
}

/**
 * Edit: `record` is the live site: a change from another device shows above the form, never in it
 * (S18), and `onSave` gets only the fields the person changed, with the basis the form opened on (S4).
 */
interface EditProps {
  record: Site;
  onSave: (patch: Partial<SiteInput>, basis: EditBasis) => void;
}

/**
 * The site form of spec 2.11, for New Site and the inline edit. Like the program form, submit is
 * disabled while the name is empty and a blank name says 'Please enter a site name'.
 */
export function SiteForm(
  props: (NewProps | EditProps) & {
    labels: { submit: string; pending: string };
    /** The caller's save is running (its useCommand): submit shows `labels.pending` and is disabled. */
    pending: boolean;
    onCancel: () => void;
  },
) {
  const { labels, pending, onCancel } = props;
  // A new site has no record to change underneath: its start is the initial values, held.
  const [blank] = useState(() => (props.record ? null : props.initial));
  const edit = useRecordEdit<SiteInput & { updated_date?: string | null }>(props.record ?? blank!, FIELDS);
  const [values, setValues] = useState(() => inputsOf(edit.start));
  const [error, setError] = useState<string | undefined>();
  const stored = storedOf(values);
  const edited = editedFields(edit.start, stored, FIELDS);
  const set = <K extends keyof Inputs>(key: K, value: Inputs[K]) => setValues((v) => ({ ...v, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (pending) return;
    if (stored.site_name === '') {
      setError('Please enter a site name');
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
        label="Site Name *"
        value={values.site_name}
        autoFocus
        onChange={(e) => {
          set('site_name', e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <SelectField label="Site Type" value={values.site_type} onChange={(e) => set('site_type', e.target.value as SiteType)} options={SITE_TYPES} />
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField label="City" value={values.city} onChange={(e) => set('city', e.target.value)} />
        <TextField label="County" value={values.county} onChange={(e) => set('county', e.target.value)} />
        <TextField label="Region" value={values.region} onChange={(e) => set('region', e.target.value)} />
      </div>
      <CheckboxField label="Active Site" checked={values.active} onChange={(e) => set('active', e.target.checked)} />
      <FormActions canSubmit={values.site_name !== ''} pending={pending} labels={labels} onCancel={onCancel} />
    </form>
  );
}
