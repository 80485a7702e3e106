import { useState, type FormEvent } from 'react';
import type { SiteInput } from '../../data/commands/sites';
import type { SiteType } from '../../../shared/entities';
import { CheckboxField, SelectField, TextField } from '../../ui/field';
import { FormActions } from '../../ui/form-actions';

const SITE_TYPES: { value: SiteType; label: string }[] = [
  { value: 'prison', label: 'Prison' },
  { value: 'juvenile', label: 'Juvenile' },
  { value: 'fire_camp', label: 'Fire Camp' },
  { value: 'community', label: 'Community' },
];

/**
 * The site form of spec 2.11, for New Site and the inline edit. Like the program form, submit is
 * disabled while the name is empty and a blank name says 'Please enter a site name'.
 */
export function SiteForm({ initial, labels, pending, onSubmit, onCancel }: {
  initial: SiteInput;
  labels: { submit: string; pending: string };
  /** The caller's save is running (its useCommand): submit shows `labels.pending` and is disabled. */
  pending: boolean;
  /** Saves; the caller closes the form when it succeeded and keeps it (with the input) when not. */
  onSubmit: (input: SiteInput) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial.site_name ?? '');
  const [type, setType] = useState<SiteType>(initial.site_type ?? 'prison');
  const [city, setCity] = useState(initial.city ?? '');
  const [county, setCounty] = useState(initial.county ?? '');
  const [region, setRegion] = useState(initial.region ?? '');
  const [active, setActive] = useState(initial.active ?? true);
  const [error, setError] = useState<string | undefined>();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (pending) return;
    if (name.trim() === '') {
      setError('Please enter a site name');
      return;
    }
    onSubmit({
      site_name: name.trim(),
      site_type: type,
      city: city.trim() || null,
      county: county.trim() || null,
      region: region.trim() || null,
      active,
    });
  }

  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      <TextField
        label="Site Name *"
        value={name}
        autoFocus
        onChange={(e) => {
          setName(e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <SelectField label="Site Type" value={type} onChange={(e) => setType(e.target.value as SiteType)} options={SITE_TYPES} />
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField label="City" value={city} onChange={(e) => setCity(e.target.value)} />
        <TextField label="County" value={county} onChange={(e) => setCounty(e.target.value)} />
        <TextField label="Region" value={region} onChange={(e) => setRegion(e.target.value)} />
      </div>
      <CheckboxField label="Active Site" checked={active} onChange={(e) => setActive(e.target.checked)} />
      <FormActions canSubmit={name !== ''} pending={pending} labels={labels} onCancel={onCancel} />
    </form>
  );
}
