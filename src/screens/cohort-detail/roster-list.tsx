import { X } from 'lucide-react';
import { useState } from 'react';
import { unenrollParticipant } from '../../data/commands/enrollments';
import type { RosterRow } from '../../data/queries/cohorts';
import { UID_FIELD } from '../../../shared/config';
import { formatDate } from '../../domain/format';
import { participantName } from '../../domain/enrol-search';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';
import { useCommand } from '../parts/use-command';

/**
 * The active enrollments; X withdraws one (status 'withdrawn', never deleted — spec 4) after a
 * confirmation (issue #12.1: the X sits next to the row link, one stray tap must not withdraw).
 * The dialog's wording is ours: the spec only gives the 'Participant unenrolled' toast.
 */
export function RosterList({ rows, cohortCode }: { rows: RosterRow[]; cohortCode?: string }) {
  const [asking, setAsking] = useState<{ id: string; name: string } | null>(null);
  // The spec shows no failure for unenrolling (spec.md 8); the words are ours.
  const unenrol = useCommand((data, enrollmentId: string) => unenrollParticipant(data, enrollmentId), {
    success: 'Participant unenrolled',
    failure: 'Failed to unenroll participant. Please try again.',
    onSuccess: () => setAsking(null),
  });
  const busy = unenrol.pending;
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-500">No participants enrolled yet</p>;

  return (
    <>
      <ul className="divide-y divide-slate-100">
        {rows.map(({ enrollment, participant }) => {
          const name = participant ? participantName(participant) || 'Participant' : 'Participant';
          const uid = participant?.[UID_FIELD];
          return (
            <li key={enrollment.id} className="flex items-center gap-3 py-2">
              <PageLink
                href={pageUrl('ParticipantDetail', enrollment.participant_id)}
                className="min-w-0 flex-1 rounded-lg px-2 py-1.5 hover:bg-slate-50"
              >
                <span className="block font-medium text-slate-900">{name}</span>
                <span className="block text-xs text-slate-500">
                  {[uid && `UID: ${uid}`, enrollment.intake_date && `Intake ${formatDate(enrollment.intake_date)}`].filter(Boolean).join(' · ')}
                </span>
              </PageLink>
              <button
                type="button"
                onClick={() => setAsking({ id: enrollment.id, name })}
                aria-label={`Unenroll ${name}`}
                title={`Unenroll ${name}`}
                className="ml-2 inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-red-700"
              >
                <X className="h-4 w-4" aria-hidden="true" />
              </button>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={asking !== null}
        title={`Unenroll ${asking?.name ?? 'participant'}?`}
        description={`${asking?.name ?? 'The participant'} will be marked withdrawn from ${cohortCode || 'this cohort'}. The enrollment record is kept, and they can be enrolled again later.`}
        confirmLabel="Unenroll"
        busy={busy}
        onConfirm={() => asking && void unenrol.run(asking.id)}
        onCancel={() => !busy && setAsking(null)}
      />
    </>
  );
}
