import { Printer, UsersRound } from 'lucide-react';
import { markEveryonePresent } from '../../data/commands/attendance';
import { useSessionRoster } from '../../data/queries/attendance';
import { PAGE_NEEDS } from '../../data/queries/first-sync';
import { useTabletScope } from '../../data/queries/scope';
import { markedPhrase, tally } from '../../domain/attendance';
import { canTakeAttendance, cohortRole } from '../../domain/cohort-role';
import { formatDateTime } from '../../domain/format';
import { sessionTitle } from '../../domain/session-title';
import { useCurrentUser } from '../../shell-api/current-user';
import { pageUrl } from '../../shell-api/paths';
import { Button, buttonClass } from '../../ui/button';
import { Card } from '../../ui/card';
import { PageHeader } from '../../ui/page-header';
import { PageLink } from '../../ui/page-link';
import { DetailRecordState } from '../parts/detail-record-state';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { isScoped, NotOnTabletState } from '../parts/scope-absence';
import { SessionBackLink } from '../parts/session-back-link';
import { useCommand } from '../parts/use-command';
import { useDetailRecord } from '../parts/use-detail-record';
import { RosterRow } from './roster-row';
import { StatusCounts } from './status-counts';

/**
 * Issue #23.3: one session's roster, taken on the tablet in the room. "Mark everyone present" then
 * one tap per exception: a roster of 30 is done in at most 31 taps. Every tap is a local write
 * (the mirror and the queue, S1), so the page works the same with no connection and never waits on
 * the network. Who is listed is the domain's rule (`rosterOf`): active enrollments by the session's
 * day, plus anyone with a record here (a withdrawn participant keeps past attendance). A coach who
 * is not this cohort's lead or support coach sees the roster read-only, as the server would refuse
 * their taps (cohort-role.ts).
 */
export function TakeAttendancePage({ id }: { id: string }) {
  const scope = useTabletScope();
  const { view, readiness } = useDetailRecord(useSessionRoster(id), PAGE_NEEDS.TakeAttendance, scope === undefined ? 'unknown' : isScoped(scope) ? 'maybe' : 'no');
  const user = useCurrentUser();
  const everyone = useCommand((data, sessionId: string, participantIds: string[]) => markEveryonePresent(data, sessionId, participantIds), {
    failure: 'Failed to mark everyone present',
  });

  if (view.show !== 'record') {
    return (
      <DetailRecordState
        view={view}
        readiness={readiness}
        loadingLabel="Loading roster"
        notFound="Session not found"
        back={{ page: 'Cohorts', label: 'Back to Cohorts' }}
        beyondScope={(back) => (
          <NotOnTabletState
            message="This session's cohort is at a site this tablet does not hold. Add the site under Sync → Sites on this tablet to take its attendance here."
            back={back}
          />
        )}
      />
    );
  }
  const { session, cohort, entries } = view.record;
  const editable = canTakeAttendance(cohortRole(user, cohort));
  const counts = tally(entries);
  const unmarked = entries.filter((e) => !e.record && !e.inactive).map((e) => e.participantId);
  const when = formatDateTime(session.scheduled_at, 'Not scheduled');

  return (
    <div className="mx-auto max-w-5xl">
      <SessionBackLink cohort={cohort} />
      <FirstSyncNotice readiness={readiness} />
      <PageHeader
        title={sessionTitle(cohort, session)}
        subtitle={[session.topic, when].filter(Boolean).join(' · ')}
        actions={
          <PageLink href={pageUrl('SignInSheet', session.id)} className={buttonClass('secondary')}>
            <Printer aria-hidden="true" className="h-4 w-4" />
            Print sign-in sheet
          </PageLink>
        }
      />
      {!editable && (
        <p role="note" className="mb-4 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">
          You can view this roster but not change it: only {cohort?.cohort_code || 'this cohort'}&apos;s lead and support coaches (and
          administrators) take its attendance.
        </p>
      )}
      {/* Sticky under the app's header (h-14): the count stays in sight down a roster of 30. */}
      <Card className="sticky top-14 z-20 mb-4 flex flex-wrap items-center justify-between gap-3 px-4 py-3">
        <div>
          <p aria-live="polite" className="text-xl font-bold text-slate-900">
            {markedPhrase(counts)}
          </p>
          <StatusCounts entries={entries} />
        </div>
        {editable && (
          <Button
            className="min-h-14 px-6 text-base"
            disabled={everyone.pending || unmarked.length === 0}
            onClick={() => void everyone.run(session.id, unmarked)}
          >
            <UsersRound aria-hidden="true" className="h-5 w-5" />
            Mark everyone present
          </Button>
        )}
      </Card>
      {entries.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-600">
          Nobody is on this roster: no participant had an active enrollment in this cohort by the session&apos;s date.
        </p>
      ) : (
        <Card>
          <ul aria-label="Roster" className="divide-y divide-slate-100">
            {entries.map((entry) => (
              <RosterRow key={entry.participantId} entry={entry} sessionId={session.id} cohortId={session.cohort_id} editable={editable} />
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
