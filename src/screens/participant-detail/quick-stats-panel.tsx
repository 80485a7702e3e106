import { useEnrollmentsOfParticipant } from '../../data/queries/enrollments';
import { useOutcomeCount } from '../../data/queries/outcomes';
import { Panel } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { StatRow } from '../../ui/stat-card';

/** Spec 2.7 Quick Stats: active enrollments, all enrollments, outcome records. */
export function QuickStatsPanel({ participantId }: { participantId: string }) {
  const enrollments = useEnrollmentsOfParticipant(participantId);
  const outcomes = useOutcomeCount(participantId);
  return (
    <Panel title="Quick Stats">
      {!enrollments || outcomes === undefined ? (
        <Skeleton className="h-28 w-full" />
      ) : (
        <div>
          <StatRow label="Active Cohorts" value={enrollments.filter((e) => e.enrollment.enrollment_status === 'active').length} />
          <StatRow label="Total Enrollments" value={enrollments.length} />
          <StatRow label="Outcome Records" value={outcomes} />
        </div>
      )}
    </Panel>
  );
}
