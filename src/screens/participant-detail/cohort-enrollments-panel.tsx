import { useEnrollmentsOfParticipant } from '../../data/queries/enrollments';
import { formatDate } from '../../domain/format';
import { Badge, statusTone } from '../../ui/badge';
import { Panel } from '../../ui/card';
import { pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';
import { Skeleton } from '../../ui/skeleton';

/** Spec 2.7 'Cohort Enrollments': every enrollment of the participant, each linking to its cohort. */
export function CohortEnrollmentsPanel({ participantId }: { participantId: string }) {
  const rows = useEnrollmentsOfParticipant(participantId);
  return (
    <Panel title="Cohort Enrollments">
      {!rows ? (
        <Skeleton className="h-20 w-full" />
      ) : rows.length === 0 ? (
        <p className="py-4 text-center text-sm text-slate-500">Not enrolled in any cohorts</p>
      ) : (
        <ul className="space-y-3">
          {rows.map(({ enrollment, cohort }) => (
            <li key={enrollment.id}>
              <PageLink
                href={pageUrl('CohortDetail', enrollment.cohort_id)}
                className="block rounded-lg border border-slate-200 p-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
              >
                <span className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
                  <span className="font-semibold whitespace-nowrap text-slate-900">{cohort?.cohort_code || 'Cohort'}</span>
                  <Badge tone={statusTone(enrollment.enrollment_status)}>{enrollment.enrollment_status}</Badge>
                </span>
                <span className="mt-1 block text-sm text-slate-600">Enrolled: {formatDate(enrollment.intake_date, 'N/A')}</span>
                <span className="block text-sm text-slate-600">Started: {formatDate(cohort?.start_date, 'N/A')}</span>
              </PageLink>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
