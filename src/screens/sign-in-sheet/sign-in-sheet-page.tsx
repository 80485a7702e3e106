import { Printer } from 'lucide-react';
import './sign-in-sheet.css';
import { useSessionRoster } from '../../data/queries/attendance';
import { PAGE_NEEDS } from '../../data/queries/first-sync';
import { useTabletScope } from '../../data/queries/scope';
import { useSite } from '../../data/queries/sites';
import { useUsers } from '../../data/queries/users';
import { formatDate, formatDateTime } from '../../domain/format';
import { personName } from '../../domain/record-title';
import { sessionTitle } from '../../domain/session-title';
import { Button } from '../../ui/button';
import { DetailRecordState } from '../parts/detail-record-state';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { isScoped, NotOnTabletState } from '../parts/scope-absence';
import { SessionBackLink } from '../parts/session-back-link';
import { useDetailRecord } from '../parts/use-detail-record';

/** Empty numbered lines under the roster: someone enrolled after the sheet was printed signs there. */
const BLANK_LINES = 3;

const CELL = 'border border-slate-300 px-2 py-1 text-left align-middle';

/**
 * Issue #23.6: a session's roster on paper, for days when the tablet cannot come into the room —
 * No., Name, UID, a wide Signature column and Time in, under the cohort, session, date and coach.
 * Lists the participants expected (active enrollments by the session's day, domain `rosterOf`),
 * not those kept on the roster only for a past record. The coach enters the marks in Take
 * attendance afterwards. Print CSS: sign-in-sheet.css.
 */
export function SignInSheetPage({ id }: { id: string }) {
  const scope = useTabletScope();
  const { view, readiness } = useDetailRecord(useSessionRoster(id), PAGE_NEEDS.SignInSheet, scope === undefined ? 'unknown' : isScoped(scope) ? 'maybe' : 'no');
  const cohort = view.show === 'record' ? view.record.cohort : null;
  const site = useSite(cohort?.site_id ?? '');
  const users = useUsers();

  if (view.show !== 'record') {
    return (
      <DetailRecordState
        view={view}
        readiness={readiness}
        loadingLabel="Loading sign-in sheet"
        notFound="Session not found"
        back={{ page: 'Cohorts', label: 'Back to Cohorts' }}
        beyondScope={(back) => (
          <NotOnTabletState message="This session's cohort is at a site this tablet does not hold. Add the site under Sync → Sites on this tablet to print its sheet here." back={back} />
        )}
      />
    );
  }
  const { session, entries } = view.record;
  const expected = entries.filter((e) => !e.inactive);
  const leadEmail = cohort?.lead_coach_email ?? '';
  const lead = users?.find((u) => u.email.toLowerCase() === leadEmail.toLowerCase());
  const coach = lead?.full_name || leadEmail || 'Not set';
  const time = formatDateTime(session.scheduled_at).split(', ')[1] ?? '';

  return (
    <div className="sign-in-sheet mx-auto max-w-4xl">
      <SessionBackLink cohort={cohort} />
      <FirstSyncNotice readiness={readiness} />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <p className="max-w-xl text-sm text-slate-600">
          For a day the tablet cannot come into the room: print the sheet, have each participant sign, then enter the marks under Take
          attendance.
        </p>
        <Button onClick={() => window.print()}>
          <Printer aria-hidden="true" className="h-4 w-4" />
          Print
        </Button>
      </div>
      <article className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm print:rounded-none print:border-0 print:p-0">
        <header className="sheet-heading mb-4">
          <h1 className="text-2xl font-bold text-slate-900">Sign-in sheet</h1>
          <p className="mt-1 text-lg font-semibold text-slate-900">
            {sessionTitle(cohort, session)}
            {session.topic ? ` — ${session.topic}` : ''}
          </p>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-700 sm:grid-cols-[auto_1fr_auto_1fr]">
            <dt className="font-medium">Date</dt>
            <dd>{[formatDate(session.scheduled_at, 'Not scheduled'), time].filter(Boolean).join(', ')}</dd>
            <dt className="font-medium">Site</dt>
            <dd>{site?.site_name || 'N/A'}</dd>
            <dt className="font-medium">Coach</dt>
            <dd>{coach}</dd>
            <dt className="font-medium">Expected</dt>
            <dd>{expected.length}</dd>
          </dl>
        </header>
        <table className="w-full border-collapse text-sm">
          <thead>
            <tr className="bg-slate-50">
              <th scope="col" className={`${CELL} w-12`}>
                No.
              </th>
              <th scope="col" className={CELL}>
                Name
              </th>
              <th scope="col" className={`${CELL} w-28`}>
                UID
              </th>
              <th scope="col" className={`${CELL} w-[40%]`}>
                Signature
              </th>
              <th scope="col" className={`${CELL} w-24`}>
                Time in
              </th>
            </tr>
          </thead>
          <tbody>
            {expected.map((entry, i) => (
              <tr key={entry.participantId} className="h-12">
                <td className={CELL}>{i + 1}</td>
                <td className={`${CELL} whitespace-nowrap font-medium`}>{personName(entry.participant as Record<string, unknown> | null) ?? 'Participant'}</td>
                <td className={`${CELL} whitespace-nowrap`}>{entry.participant?.academy_uid ?? ''}</td>
                <td className={CELL} />
                <td className={CELL} />
              </tr>
            ))}
            {Array.from({ length: BLANK_LINES }, (_, i) => (
              <tr key={`blank-${i}`} className="h-12" data-testid="blank-line">
                <td className={CELL}>{expected.length + i + 1}</td>
                <td className={CELL} />
                <td className={CELL} />
                <td className={CELL} />
                <td className={CELL} />
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-6 text-sm text-slate-700">Coach&apos;s signature: ________________________________</p>
      </article>
    </div>
  );
}
