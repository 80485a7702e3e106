import { SECTION_TITLE } from '../../ui/field';
import { Pencil } from 'lucide-react';
import { PAGE_NEEDS } from '../../data/queries/first-sync';
import { useState } from 'react';
import { updateProgram, type ProgramInput } from '../../data/commands/programs';
import type { EditBasis } from '../../data/commands/record-writes';
import { useActiveEnrollmentSummary, useCohortsOfProgram } from '../../data/queries/cohorts';
import { useProgram } from '../../data/queries/programs';
import { useTabletScope } from '../../data/queries/scope';
import { scopePhrase } from '../../domain/scope-phrase';
import { useIsAdmin } from '../../shell-api/current-user';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, Panel } from '../../ui/card';
import { BackLink } from '../parts/back-link';
import { DetailRecordState } from '../parts/detail-record-state';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { useCommand } from '../parts/use-command';
import { useDetailRecord } from '../parts/use-detail-record';
import { PageHeader } from '../../ui/page-header';
import { ProgramForm } from '../parts/program-form';
import { ProgramBody } from './program-body';

/** Spec 2.12: one program, its cohorts, sites, stats and coaches; admins edit it. */
export function ProgramDetailPage({ id }: { id: string }) {
  // Programs are whole on every tablet (S15): an absent one is not found, once the first sync is done.
  const { view, readiness } = useDetailRecord(useProgram(id), PAGE_NEEDS.ProgramDetail);
  const cohorts = useCohortsOfProgram(id);
  const summary = useActiveEnrollmentSummary(cohorts?.map((c) => c.id));
  // Issue #22.4: on a tablet holding some sites, its cohorts and figures are those sites' only.
  const scope = useTabletScope();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useState(false);
  const save = useCommand((data, programId: string, patch: Partial<ProgramInput>, basis: EditBasis) => updateProgram(data, programId, patch, basis), {
    success: 'Program updated successfully!',
    failure: 'Failed to update program',
    onSuccess: () => setEditing(false),
  });

  if (view.show !== 'record') {
    return (
      <DetailRecordState
        view={view}
        readiness={readiness}
        loadingLabel="Loading program"
        notFound="Program not found"
        back={{ page: 'ProgramsSites', label: 'Back to Programs' }}
      />
    );
  }
  const program = view.record;

  const name = program.program_name || 'Untitled Program';
  return (
    <div className="mx-auto max-w-7xl">
      <BackLink page="ProgramsSites" label="Programs & Sites" />
      <FirstSyncNotice readiness={readiness} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {name}
            <Badge tone={program.active ? 'green' : 'slate'}>{program.active ? 'Active' : 'Inactive'}</Badge>
          </span>
        }
        actions={
          isAdmin && !editing ? (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              <Pencil className="h-4 w-4" aria-hidden="true" />
              Edit Program
            </Button>
          ) : null
        }
      />
      {editing && (
        <Card className="mb-6 p-5">
          <h2 className={`mb-3 ${SECTION_TITLE}`}>Edit Program</h2>
          <ProgramForm
            record={program}
            labels={{ submit: 'Save Changes', pending: 'Saving...' }}
            pending={save.pending}
            onSave={(patch, basis) => void save.run(program.id, patch, basis)}
            onCancel={() => setEditing(false)}
          />
        </Card>
      )}
      {!editing && (
        <Panel title="About This Program" className="mb-6">
          <p className="whitespace-pre-wrap text-sm text-slate-700">
            {program.description || 'No description added yet. Click Edit Program to add one.'}
          </p>
        </Panel>
      )}
      <ProgramBody
        programId={program.id}
        cohorts={scope === undefined ? undefined : cohorts}
        summary={summary}
        isAdmin={isAdmin}
        covers={scopePhrase(scope)}
      />
    </div>
  );
}
