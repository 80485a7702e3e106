import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { createCohort } from '../../data/commands/cohorts';
import { usePrograms } from '../../data/queries/programs';
import { useSites } from '../../data/queries/sites';
import { useUsers } from '../../data/queries/users';
import { useCohortCodes } from '../../data/queries/cohorts';
import { codeKey, duplicateCodeMessage, generateCohortCode, nextFreeCohortCode } from '../../domain/cohort-code';
import { pagePath } from '../../shell-api/paths';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { useCommand } from '../parts/use-command';
import { CoachingStaffSection } from './coaching-staff-section';
import { CohortDetailsSection } from './cohort-details-section';
import { draftErrors, EMPTY_DRAFT, hasRequired, toCohortInput, type CohortDraft } from './cohort-draft';

/** Spec 2.9: create a cohort; only active programs and sites can be chosen. */
export function AddCohortPage() {
  const navigate = useNavigate();
  const programs = usePrograms();
  const sites = useSites();
  const users = useUsers();
  const codes = useCohortCodes();
  // ?program_id= (from ProgramDetail's 'Create First Cohort' / 'Add Cohort') pre-selects the program (issue #12.8).
  const presetProgram = useRouterState({ select: (s) => (s.location.search as Record<string, unknown>).program_id });
  const [draft, setDraft] = useState<CohortDraft>(() => ({ ...EMPTY_DRAFT, program_id: typeof presetProgram === 'string' ? presetProgram : '' }));
  const [showErrors, setShowErrors] = useState(false);

  const set = (patch: Partial<CohortDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const activePrograms = (programs ?? []).filter((p) => p.active === true);
  const activeSites = (sites ?? []).filter((s) => s.active === true);
  const program = activePrograms.find((p) => p.id === draft.program_id);
  const site = activeSites.find((s) => s.id === draft.site_id);
  // A pre-selected program that is not (or no longer) active cannot be chosen: not ready until one is.
  const ready = hasRequired(draft) && program !== undefined && site !== undefined;
  const errors = draftErrors(draft);
  // Issue #12.3: a taken code is refused at once (as typed), not only on submit.
  const codeError = codes?.has(codeKey(draft.cohort_code)) ? duplicateCodeMessage(draft.cohort_code) : undefined;
  const generate =
    program && site && draft.start_date
      ? () => {
          const code = generateCohortCode(program.program_name ?? '', site.site_name ?? '', draft.start_date);
          if (code) set({ cohort_code: nextFreeCohortCode(code, new Set(codes?.keys())) });
        }
      : null;
  const create = useCommand((data) => createCohort(data, toCohortInput(draft)), {
    success: 'Cohort created successfully!',
    failure: 'Failed to create cohort',
    onSuccess: () => navigate({ to: pagePath('Cohorts') }),
  });
  const pending = create.pending;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!ready || pending || codeError) return;
    if (Object.keys(errors).length > 0) {
      setShowErrors(true);
      return;
    }
    void create.run();
  }

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Create New Cohort" subtitle="Set up a new program cohort" />
      <form onSubmit={submit} className="space-y-6" noValidate>
        <CohortDetailsSection
          draft={draft}
          set={set}
          programs={activePrograms}
          sites={activeSites}
          loading={!programs || !sites}
          errors={showErrors ? errors : {}}
          onGenerate={generate}
          codeError={codeError}
        />
        <CoachingStaffSection users={users} value={draft.lead_coach_email} onChange={(lead_coach_email) => set({ lead_coach_email })} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => void navigate({ to: pagePath('Cohorts') })} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!ready || pending || codeError !== undefined}>
            {pending ? 'Creating...' : 'Create Cohort'}
          </Button>
        </div>
      </form>
    </div>
  );
}
