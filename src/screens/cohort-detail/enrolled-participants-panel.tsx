import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { CohortRoster } from '../../data/queries/cohorts';
import type { Cohort } from '../../../shared/entities';
import { Button } from '../../ui/button';
import { Panel } from '../../ui/card';
import { SkeletonCards } from '../../ui/skeleton';
import { EnrolPanel } from './enrol-panel';
import { RosterList } from './roster-list';

/** 'Enrolled Participants (N active)' with the enrol toggle and the active roster (spec 2.10). */
export function EnrolledParticipantsPanel({ cohort, roster }: { cohort: Cohort; roster: CohortRoster | undefined }) {
  const [enrolling, setEnrolling] = useState(false);
  // One set per roster change, so the enrol search is not re-run on unrelated renders.
  const enrolledIds = useMemo(() => new Set(roster?.active.map((r) => r.enrollment.participant_id)), [roster]);
  return (
    <Panel
      title={`Enrolled Participants (${roster ? roster.active.length : '…'} active)`}
      actions={
        <Button variant={enrolling ? 'secondary' : 'primary'} className="shrink-0 whitespace-nowrap" onClick={() => setEnrolling((v) => !v)} aria-expanded={enrolling}>
          <UserPlus className="h-4 w-4" aria-hidden="true" />
          Enroll Participant
        </Button>
      }
    >
      {enrolling && roster && (
        <EnrolPanel
          cohort={cohort}
          enrolledIds={enrolledIds}
          activeCount={roster.active.length}
          onClose={() => setEnrolling(false)}
        />
      )}
      {!roster ? <SkeletonCards count={2} className="space-y-3" label="Loading enrollments" /> : <RosterList rows={roster.active} cohortCode={cohort.cohort_code} />}
    </Panel>
  );
}
