import { Pencil } from 'lucide-react';
import { PAGE_NEEDS } from '../../data/queries/first-sync';
import { useState } from 'react';
import { updateCohort, type CohortInput } from '../../data/commands/cohorts';
import type { EditBasis } from '../../data/commands/record-writes';
import { useCohort, useCohortRoster } from '../../data/queries/cohorts';
import { useTabletScope } from '../../data/queries/scope';
import { useSessionsOfCohort } from '../../data/queries/sessions';
import { cohortRole, canExportAttendance } from '../../domain/cohort-role';
import { useCurrentUser, useIsAdmin } from '../../shell-api/current-user';
import { Badge, statusTone } from '../../ui/badge';
import { Button } from '../../ui/button';
import { BackLink } from '../parts/back-link';
import { DetailRecordState } from '../parts/detail-record-state';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { isScoped, NotOnTabletState } from '../parts/scope-absence';
import { useCommand } from '../parts/use-command';
import { useDetailRecord } from '../parts/use-detail-record';
import { PageHeader } from '../../ui/page-header';
import { RecordHistory } from '../parts/record-history';
import { AttendancePanel } from './attendance-panel';
import { CohortEditForm, COHORT_EDIT_FORM_ID } from './cohort-edit-form';
import { CohortInfoPanel } from './cohort-info-panel';
import { EnrolledParticipantsPanel } from './enrolled-participants-panel';
import { QuickStatsPanel } from './quick-stats-panel';
import { SessionsPanel } from './sessions-panel';
import { UpcomingSessionsPanel } from './upcoming-sessions-panel';

/**
 * Spec 2.10: one cohort, its enrollments (enrol / unenrol), stats and upcoming sessions; issue #23:
 * every session with its attendance (scheduled by admins and the lead coach) and the attendance panel.
 */
export function CohortDetailPage({ id }: { id: string }) {
  // Issue #22.2: a tablet holding some sites cannot tell a cohort elsewhere from one that is gone.
  const scope = useTabletScope();
  const { view, readiness } = useDetailRecord(useCohort(id), PAGE_NEEDS.CohortDetail, scope === undefined ? 'unknown' : isScoped(scope) ? 'maybe' : 'no');
  const roster = useCohortRoster(id);
  const sessions = useSessionsOfCohort(id);
  const isAdmin = useIsAdmin();
  const user = useCurrentUser();
  const [editing, setEditing] = useState(false);
  const save = useCommand((data, cohortId: string, patch: Partial<CohortInput>, basis: EditBasis) => updateCohort(data, cohortId, patch, basis), {
    success: 'Cohort updated successfully!',
    failure: 'Failed to update cohort. Please try again.',
    onSuccess: () => setEditing(false),
  });

  if (view.show !== 'record') {
    return (
      <DetailRecordState
        view={view}
        readiness={readiness}
        loadingLabel="Loading cohort"
        notFound="Cohort not found"
        back={{ page: 'Cohorts', label: 'Back to Cohorts' }}
        beyondScope={(back) => (
          <NotOnTabletState
            message="This cohort is at a site this tablet does not hold. Add the site under Sync → Sites on this tablet to work with it here."
            back={back}
          />
        )}
      />
    );
  }
  const cohort = view.record;
  const saving = save.pending;

  const status = cohort.status || 'planned';
  // Issue #23: what this person may do here, as the server's permission table reads it.
  const role = cohortRole(user, cohort);
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
            <CohortEditForm cohort={cohort} onSave={(patch, basis) => void save.run(cohort.id, patch, basis)} />
          ) : (
            <CohortInfoPanel cohort={cohort} activeCount={roster?.active.length} />
          )}
          <EnrolledParticipantsPanel cohort={cohort} roster={roster} />
          <SessionsPanel cohort={cohort} role={role} />
          {/* Issue #26: who changed this cohort and when (administrators, online). */}
          <RecordHistory entity="Cohort" recordId={cohort.id} />
        </div>
        <div className="grid content-start items-start gap-6 md:grid-cols-2 xl:grid-cols-1">
          <QuickStatsPanel roster={roster} sessions={sessions} />
          <UpcomingSessionsPanel sessions={sessions} />
          <AttendancePanel cohort={cohort} roster={roster} canExport={canExportAttendance(role)} />
        </div>
      </div>
    </div>
  );
}
