import { useEnrollmentsOfParticipant } from '../../data/queries/enrollments';
import { useParticipantAttendance } from '../../data/queries/attendance';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { INCOMPLETE_OFFLINE } from '../../ui/first-sync-text';
import { ATTENDANCE_LABEL, attendedPhrase } from '../../domain/attendance';
import { formatDate } from '../../domain/format';
import { Badge } from '../../ui/badge';
import { Panel } from '../../ui/card';
import { Skeleton } from '../../ui/skeleton';
import { StatRow } from '../../ui/stat-card';

/**
 * Issue #23.4: the participant's attendance over every session they were marked at: 'Sessions
 * attended: 9 of 12, 75%' (present or late, of held), how many were excused, and the last absences
 * with their cohort and session. Beside spec 2.7's Quick Stats, which stay as they are.
 */
export function AttendanceCard({ participantId }: { participantId: string }) {
  const attendance = useParticipantAttendance(participantId);
  const enrollments = useEnrollmentsOfParticipant(participantId);
  const codeOf = new Map(enrollments?.map(({ enrollment, cohort }) => [enrollment.cohort_id, cohort?.cohort_code]) ?? []);
  // Until the first sync brought attendance, "none taken" would be a guess (issue #9.5).
  const readiness = useFirstSync(PAGE_NEEDS.AttendanceFigures);
  return (
    <Panel title="Attendance">
      {readiness.state === 'incomplete' ? (
        <p className="py-4 text-center text-sm text-slate-600">{INCOMPLETE_OFFLINE}</p>
      ) : !attendance || readiness.state !== 'ready' ? (
        <Skeleton className="h-20 w-full" />
      ) : attendance.held === 0 ? (
        <p className="py-4 text-center text-sm text-slate-500">No attendance taken yet</p>
      ) : (
        <>
          {/* Stacked: beside its label, '9 of 12, 75%' broke over two lines in the 1024 px side column. */}
          <div className="border-b border-slate-100 pb-2">
            <p className="text-sm text-slate-600">Sessions attended</p>
            <p className="whitespace-nowrap text-xl font-semibold text-slate-900">{attendedPhrase(attendance)}</p>
          </div>
          <StatRow label="Excused" value={attendance.excused} />
          <h3 className="mt-3 text-sm font-semibold text-slate-700">Last absences</h3>
          {attendance.lastAbsences.length === 0 ? (
            <p className="mt-1 text-sm text-slate-500">No absences</p>
          ) : (
            <ul aria-label="Last absences" className="mt-1 divide-y divide-slate-100">
              {attendance.lastAbsences.map((a) => (
                <li key={a.sessionId} className="flex items-center justify-between gap-3 py-2 text-sm">
                  <span className="min-w-0">
                    <span className="block font-medium text-slate-900">{formatDate(a.at, 'No date')}</span>
                    <span className="block text-xs text-slate-600">
                      {a.session && codeOf.get(a.session.cohort_id) && <span className="whitespace-nowrap">{codeOf.get(a.session.cohort_id)} ·</span>}{' '}
                      <span className="whitespace-nowrap">{a.session ? `Session ${a.session.session_number ?? '—'}` : 'Session not on this tablet'}</span>
                    </span>
                  </span>
                  <Badge tone={a.status === 'excused' ? 'amber' : 'red'}>{ATTENDANCE_LABEL[a.status]}</Badge>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Panel>
  );
}
