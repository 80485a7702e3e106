import { useRecentEnrollments, type RecentEnrollment } from '../../data/queries/enrollments';
import { formatDate } from '../../domain/format';
import { Badge, statusTone } from '../../ui/badge';
import { Panel } from '../../ui/card';
import { PanelRowsSkeleton, ParticipantRow } from './panel-rows';

/** Spec 2.4 and 9: the 5 newest enrollments by created_date. */
const RECENT_LIMIT = 5;

function fullName(row: RecentEnrollment): string {
  const name = `${row.participant?.first_name ?? ''} ${row.participant?.last_name ?? ''}`.trim();
  return name || 'Participant';
}

/** `ready` false during the first sync: rows stay skeletons, never a false 'No enrollments yet'. */
export function RecentEnrollmentsPanel({ ready }: { ready: boolean }) {
  const rows = useRecentEnrollments(RECENT_LIMIT);
  return (
    <Panel title="Recent Enrollments">
      {!ready || !rows ? (
        <PanelRowsSkeleton label="Loading recent enrollments" />
      ) : rows.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No enrollments yet</p>
      ) : (
        <ul className="-mx-3 divide-y divide-slate-100">
          {rows.map((row) => (
            <ParticipantRow
              key={row.enrollment.id}
              id={row.enrollment.participant_id}
              title={fullName(row)}
              detail={row.cohort?.cohort_code || 'Cohort'}
              aside={
                <span className="flex shrink-0 flex-col items-end gap-1">
                  {/* Issue #12.8: a withdrawn or waitlisted enrollment must not read as active. */}
                  <Badge tone={statusTone(row.enrollment.enrollment_status)}>{row.enrollment.enrollment_status || 'active'}</Badge>
                  <span className="text-sm text-slate-500">{formatDate(row.enrollment.intake_date, 'Recently')}</span>
                </span>
              }
            />
          ))}
        </ul>
      )}
    </Panel>
  );
}
