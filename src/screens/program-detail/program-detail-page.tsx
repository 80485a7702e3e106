import { SECTION_TITLE } from '../../ui/field';
import { ArrowLeft, Pencil } from 'lucide-react';
import { Link } from '@tanstack/react-router';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { useState } from 'react';
import { toast } from 'sonner';
import { updateProgram, type ProgramInput } from '../../data/commands/programs';
import { useActiveEnrollmentSummary, useCohortsOfProgram } from '../../data/queries/cohorts';
import { useProgram } from '../../data/queries/programs';
import { useTabletScope } from '../../data/queries/scope';
import { scopePhrase } from '../../domain/scope-phrase';
import { useIsAdmin } from '../../app/current-user';
import { pagePath } from '../../app/paths';
import { Badge } from '../../ui/badge';
import { Button, buttonClass } from '../../ui/button';
import { Card, Panel } from '../../ui/card';
import { NotFoundState } from '../../ui/empty-state';
import { BackLink } from '../parts/back-link';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { FirstSyncMissingRecord } from '../parts/first-sync-missing-record';
import { PageHeader } from '../../ui/page-header';
import { Skeleton, SkeletonCards } from '../../ui/skeleton';
import { ProgramForm } from '../parts/program-form';
import { ProgramBody } from './program-body';

/** Spec 2.12: one program, its cohorts, sites, stats and coaches; admins edit it. */
export function ProgramDetailPage({ id }: { id: string }) {
  const program = useProgram(id);
  // During the first sync an unknown id is "not here yet", not '... not found' (issue #9.5).
  const readiness = useFirstSync(PAGE_NEEDS.ProgramDetail);
  const waiting = program === null && readiness.state !== 'ready';
  const cohorts = useCohortsOfProgram(id);
  const summary = useActiveEnrollmentSummary(cohorts?.map((c) => c.id));
  // Issue #22.4: on a tablet holding some sites, its cohorts and figures are those sites' only.
  const scope = useTabletScope();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useState(false);

  if (program === undefined || (waiting && readiness.state !== 'incomplete')) {
    return (
      <div className="mx-auto max-w-7xl">
        <FirstSyncNotice readiness={readiness} />
        <div role="status" aria-label="Loading program">
          <Skeleton className="mb-6 h-9 w-64" />
          <SkeletonCards count={3} />
        </div>
      </div>
    );
  }
  if (waiting) return <FirstSyncMissingRecord readiness={readiness} list="ProgramsSites" label="Back to Programs" />;
  if (program === null) {
    return (
      <NotFoundState
        title="Program not found"
        action={
          <Link to={pagePath('ProgramsSites')} className={buttonClass('secondary')}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Back to Programs
          </Link>
        }
      />
    );
  }

  async function save(input: ProgramInput): Promise<boolean> {
    try {
      await updateProgram(program!.id, input);
      toast.success('Program updated successfully!');
      setEditing(false);
      return true;
    } catch {
      toast.error('Failed to update program');
      return false;
    }
  }

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
          <ProgramForm initial={program} labels={{ submit: 'Save Changes', pending: 'Saving...' }} onSubmit={save} onCancel={() => setEditing(false)} />
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
