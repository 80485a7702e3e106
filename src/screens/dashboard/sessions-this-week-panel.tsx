import clsx from 'clsx';
import { ClipboardCheck } from 'lucide-react';
import { useMyUpcomingSessions, type UpcomingSession } from '../../data/queries/attendance';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { dayOf, markedPhrase } from '../../domain/attendance';
import { formatWeekdayDateTime, todayISO } from '../../domain/format';
import { sessionLabel } from '../../domain/session-title';
import { useCurrentUser, useIsAdmin } from '../../shell-api/current-user';
import { pageUrl } from '../../shell-api/paths';
import { Badge } from '../../ui/badge';
import { buttonClass } from '../../ui/button';
import { Panel } from '../../ui/card';
import { PageLink } from '../../ui/page-link';
import { PanelRowsSkeleton } from './panel-rows';

/** Today and the next 7 days (issue #23.2). */
const WINDOW_DAYS = 7;

/** 'Not taken' before the first tap, then '12 of 20 marked'. */
function attendanceState(row: UpcomingSession): string {
  return row.marked === 0 ? 'Not taken' : markedPhrase(row);
}

/**
 * Issue #23.2: the sessions of today and the next 7 days of the cohorts this coach leads or
 * supports (an administrator who coaches none sees every cohort on the tablet), each with its
 * attendance so far and "Take attendance". Today's are marked 'Today'. Placed above the spec's two
 * panels so a coach opening the tablet in the classroom finds the roster first.
 */
export function SessionsThisWeekPanel() {
  const user = useCurrentUser();
  const isAdmin = useIsAdmin();
  const readiness = useFirstSync(PAGE_NEEDS.DashboardSessions);
  const rows = useMyUpcomingSessions(user?.email, isAdmin, WINDOW_DAYS);
  const today = todayISO();
  return (
    <Panel title="Sessions this week" className="mt-6">
      {readiness.state !== 'ready' || !rows ? (
        <PanelRowsSkeleton label="Loading sessions" />
      ) : rows.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No sessions in the next 7 days</p>
      ) : (
        <ul className="-mx-3 divide-y divide-slate-100">
          {rows.map((row) => {
            const isToday = dayOf(row.session.scheduled_at) === today;
            return (
              <li
                key={row.session.id}
                aria-label={`${row.cohort.cohort_code || 'Cohort'} ${sessionLabel(row.session)}`}
                className={clsx('flex flex-wrap items-center justify-between gap-3 rounded-lg px-3 py-3', isToday && 'bg-blue-50')}
              >
                <span className="min-w-0">
                  <span className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                    {isToday && <Badge tone="blue">Today</Badge>}
                    {formatWeekdayDateTime(row.session.scheduled_at)}
                  </span>
                  <span className="block font-medium text-slate-900">
                    {row.cohort.cohort_code || 'Cohort'} · {sessionLabel(row.session)}
                    {row.session.topic ? ` · ${row.session.topic}` : ''}
                  </span>
                  <span className={clsx('block text-sm', row.marked === 0 ? 'text-slate-600' : 'text-emerald-800')}>{attendanceState(row)}</span>
                </span>
                <PageLink href={pageUrl('TakeAttendance', row.session.id)} className={buttonClass(isToday ? 'primary' : 'secondary', 'min-h-12')}>
                  <ClipboardCheck aria-hidden="true" className="h-4 w-4" />
                  Take attendance
                </PageLink>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
