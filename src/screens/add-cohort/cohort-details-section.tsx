import type { Program, Site } from '../../../shared/entities';
import { MIN_CAPACITY } from '../../domain/capacity';
import { FormSection, SelectField, TextAreaField, TextField } from '../../ui/field';
import { CohortCodeField } from './cohort-code-field';
import type { CohortDraft, DraftErrors } from './cohort-draft';

const STATUSES = ['planned', 'active', 'completed'] as const;

/** The cohort's own fields of spec 2.9, in the spec's order. */
export function CohortDetailsSection({
  draft,
  set,
  programs,
  sites,
  loading,
  errors,
  onGenerate,
  codeError,
}: {
  draft: CohortDraft;
  set: (patch: Partial<CohortDraft>) => void;
  programs: Program[];
  sites: Site[];
  loading: boolean;
  errors: DraftErrors;
  onGenerate: (() => void) | null;
  codeError?: string;
}) {
  const none = (what: string) => (loading ? 'Loading...' : `Select ${what}`);
  return (
    <FormSection title="Cohort Details">
      <SelectField
        label="Program *"
        required
        value={draft.program_id}
        onChange={(e) => set({ program_id: e.target.value })}
        placeholder={none('program')}
        options={programs.map((p) => ({ value: p.id, label: p.program_name || 'Untitled Program' }))}
        hint={!loading && programs.length === 0 ? 'No active programs: add one under Programs & Sites' : undefined}
      />
      <SelectField
        label="Site *"
        required
        value={draft.site_id}
        onChange={(e) => set({ site_id: e.target.value })}
        placeholder={none('site')}
        options={sites.map((s) => ({ value: s.id, label: s.site_name || 'Untitled Site' }))}
        hint={!loading && sites.length === 0 ? 'No active sites: add one under Programs & Sites' : undefined}
      />
      <CohortCodeField value={draft.cohort_code} onChange={(cohort_code) => set({ cohort_code })} onGenerate={onGenerate} error={codeError} />
      <TextField label="Start Date *" type="date" required value={draft.start_date} onChange={(e) => set({ start_date: e.target.value })} />
      <TextField label="End Date" type="date" value={draft.end_date} min={draft.start_date || undefined} onChange={(e) => set({ end_date: e.target.value })} error={errors.end_date} />
      <TextField
        label="Capacity"
        type="number"
        inputMode="numeric"
        min={MIN_CAPACITY}
        step={1}
        value={draft.capacity}
        onChange={(e) => set({ capacity: e.target.value })}
        hint="Leave empty for no limit"
        error={errors.capacity}
      />
      <SelectField
        label="Status"
        value={draft.status}
        onChange={(e) => set({ status: e.target.value as CohortDraft['status'] })}
        options={STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))}
      />
      <TextAreaField
        label="Schedule Notes"
        rows={3}
        value={draft.schedule_notes}
        onChange={(e) => set({ schedule_notes: e.target.value })}
        placeholder="e.g. Tuesdays and Thursdays, 9:00–11:00 AM, Education Building"
        className="sm:col-span-2"
      />
    </FormSection>
  );
}
