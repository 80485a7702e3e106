import type { Cohort } from '../../../shared/entities';
import type { CohortRoster } from '../../data/queries/cohorts';
import { useCohortAttendance } from '../../data/queries/attendance';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { INCOMPLETE_OFFLINE } from '../../ui/first-sync-text';
import { attendedPhrase, LOW_ATTENDANCE_RATE, percent } from '../../domain/attendance';
import { participantName } from '../../domain/enrol-search';
import { Panel } from '../../ui/card';
import { PageLink } from '../../ui/page-link';
import { Skeleton } from '../../ui/skeleton';
import { pageUrl } from '../../shell-api/paths';
import { ExportAttendanceButton } from './export-attendance-button';

const THRESHOLD = Math.round(LOW_ATTENDANCE_RATE * 100);

/**
 * Issue #23.4: the cohort's attendance — the overall rate, the rate of each session attendance was
 * taken at (a bar with its figures in text, never colour alone) and the participants below 70%,
 * each linking to their page; administrators export it as CSV.
 */
export function AttendancePanel({ cohort, roster, canExport }: { cohort: Cohort; roster: CohortRoster | undefined; canExport: boolean }) {
  const attendance = useCohortAttendance(cohort.id);
  const readiness = useFirstSync(PAGE_NEEDS.AttendanceFigures);
  if (readiness.state === 'incomplete') {
    return (
      <Panel title="Attendance">
        <p className="text-sm text-slate-600">{INCOMPLETE_OFFLINE}</p>
      </Panel>
    );
  }
  if (!attendance || readiness.state !== 'ready') {
    return (
      <Panel title="Attendance">
        <Skeleton className="h-24 w-full" />
      </Panel>
    );
  }
  const held = attendance.sessions.filter((s) => s.marked > 0);
  const nameOf = new Map(roster?.active.map((r) => [r.enrollment.participant_id, r.participant ? participantName(r.participant) : '']) ?? []);
  const overall = attendance.overall === null ? null : Math.round(attendance.overall * 100);
  return (
    <Panel title="Attendance">
      {overall === null ? (
        <p className="text-sm text-slate-500">No attendance taken yet</p>
      ) : (
        <>
          <p className="flex items-baseline justify-between gap-3 border-b border-slate-100 pb-2">
            <span className="text-sm text-slate-600">Overall attendance</span>
            <span className="text-lg font-semibold text-slate-900">{overall}%</span>
          </p>
          <h3 className="mt-3 text-sm font-semibold text-slate-700">By session</h3>
          <ul aria-label="Attendance by session" className="mt-1 space-y-2">
            {held.map(({ session, marked, attended }) => {
              const p = percent(attended, marked) ?? 0;
              return (
                <li key={session.id} className="text-sm">
                  <div className="flex justify-between gap-3">
                    <span className="font-medium text-slate-900">Session {session.session_number ?? '—'}</span>
                    <span className="text-slate-700">
                      {p}% <span className="text-slate-500">({attended} of {marked})</span>
                    </span>
                  </div>
                  <div className="mt-1 h-1.5 rounded-full bg-slate-100" aria-hidden="true">
                    <div className={p < THRESHOLD ? 'h-full rounded-full bg-amber-500' : 'h-full rounded-full bg-blue-600'} style={{ width: `${p}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
          <h3 className="mt-4 text-sm font-semibold text-slate-700">Below {THRESHOLD}% attendance</h3>
          {attendance.below.length === 0 ? (
            <p className="mt-1 text-sm text-slate-500">Everyone is at {THRESHOLD}% or above</p>
          ) : (
            <ul aria-label={`Below ${THRESHOLD}% attendance`} className="mt-1 divide-y divide-slate-100">
              {attendance.below.map((p) => (
                <li key={p.participantId} className="flex items-center justify-between gap-3 py-1.5 text-sm">
                  <PageLink href={pageUrl('ParticipantDetail', p.participantId)} className="min-w-0 truncate font-medium text-blue-700 underline-offset-2 hover:underline">
                    {nameOf.get(p.participantId) || 'Participant'}
                  </PageLink>
                  <span className="shrink-0 text-slate-700">{attendedPhrase(p)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {canExport && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <ExportAttendanceButton cohort={cohort} disabled={overall === null} />
        </div>
      )}
    </Panel>
  );
}
