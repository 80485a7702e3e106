import { ArrowLeft, Pencil } from 'lucide-react';
import { Link } from '@tanstack/react-router';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { useState } from 'react';
import { toast } from 'sonner';
import { updateCohort, type CohortInput } from '../../data/commands/cohorts';
import { useCohort, useCohortRoster } from '../../data/queries/cohorts';
import { useTabletScope } from '../../data/queries/scope';
import { useSessionsOfCohort } from '../../data/queries/sessions';
import { useIsAdmin } from '../../app/current-user';
import { pagePath } from '../../app/paths';
import { Badge, statusTone } from '../../ui/badge';
import { Button, buttonClass } from '../../ui/button';
import { NotFoundState } from '../../ui/empty-state';
import { BackLink } from '../parts/back-link';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { FirstSyncMissingRecord } from '../parts/first-sync-missing-record';
import { isScoped, NotOnTabletState } from '../parts/scope-absence';
import { PageHeader } from '../../ui/page-header';
import { Skeleton, SkeletonCards } from '../../ui/skeleton';
import { CohortEditForm, COHORT_EDIT_FORM_ID } from './cohort-edit-form';
import { CohortInfoPanel } from './cohort-info-panel';
import { EnrolledParticipantsPanel } from './enrolled-participants-panel';
import { QuickStatsPanel } from './quick-stats-panel';
import { UpcomingSessionsPanel } from './upcoming-sessions-panel';

/** Spec 2.10: one cohort, its enrollments (enrol / unenrol), stats and upcoming sessions. */
export function CohortDetailPage({ id }: { id: string }) {
  const cohort = useCohort(id);
  // During the first sync an unknown id is "not here yet", not '... not found' (issue #9.5).
  const readiness = useFirstSync(PAGE_NEEDS.CohortDetail);
  const waiting = cohort === null && readiness.state !== 'ready';
  const roster = useCohortRoster(id);
  const sessions = useSessionsOfCohort(id);
  // Issue #22.2: a tablet holding some sites cannot tell a cohort elsewhere from one that is gone.
  const scope = useTabletScope();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);

  if (cohort === undefined || (waiting && readiness.state !== 'incomplete') || (cohort === null && scope === undefined)) {
    return (
      <div className="mx-auto max-w-7xl">
        <FirstSyncNotice readiness={readiness} />
        <div role="status" aria-label="Loading cohort">
          <Skeleton className="mb-6 h-9 w-64" />
          <SkeletonCards count={2} label="Loading cohort details" />
        </div>
      </div>
    );
  }
  if (waiting) return <FirstSyncMissingRecord readiness={readiness} list="Cohorts" label="Back to Cohorts" />;
  if (cohort === null) {
    const back = (
      <Link to={pagePath('Cohorts')} className={buttonClass('secondary')}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        Back to Cohorts
      </Link>
    );
    // Every site held: the spec's 'Cohort not found' is true. Some sites: it may be at another one.
    if (isScoped(scope)) {
      return (
        <NotOnTabletState
          message="This cohort is at a site this tablet does not hold. Add the site under Sync → Sites on this tablet to work with it here."
          back={back}
        />
      );
    }
    return <NotFoundState title="Cohort not found" action={back} />;
  }

  async function save(patch: Partial<CohortInput>) {
    setSaving(true);
    try {
      await updateCohort(cohort!.id, patch);
      toast.success('Cohort updated successfully!');
      setEditing(false);
    } catch {
      toast.error('Failed to update cohort. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  const status = cohort.status || 'planned';
  const actions = !isAdmin ? null : editing ? (
    <>
      <Button variant="secondary" onClick={() => setEditing(false)} disabled={saving}>
        Cancel
      </Button>
      <Button type="submit" form={COHORT_EDIT_FORM_ID} disabled={saving}>
        {saving ? 'Saving...' : 'Save'}
      </Button>
    </>
  ) : (
    <Button variant="secondary" onClick={() => setEditing(true)}>
      <Pencil className="h-4 w-4" aria-hidden="true" />
      Edit Cohort
    </Button>
  );

  return (
    <div className="mx-auto max-w-7xl">
      <BackLink page="Cohorts" label="Cohorts" />
      <FirstSyncNotice readiness={readiness} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {cohort.cohort_code || 'Untitled Cohort'}
            <Badge tone={statusTone(status)}>{status.toUpperCase()}</Badge>
          </span>
        }
        subtitle="Cohort Management"
        actions={actions}
      />
      <div className="grid gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-2">
          {editing ? (
            <CohortEditForm cohort={cohort} onSave={save} />
          ) : (
            <CohortInfoPanel cohort={cohort} activeCount={roster?.active.length} />
          )}
          <EnrolledParticipantsPanel cohort={cohort} roster={roster} />
        </div>
        <div className="grid content-start items-start gap-6 md:grid-cols-2 xl:grid-cols-1">
          <QuickStatsPanel roster={roster} sessions={sessions} />
          <UpcomingSessionsPanel sessions={sessions} />
        </div>
      </div>
    </div>
  );
}
