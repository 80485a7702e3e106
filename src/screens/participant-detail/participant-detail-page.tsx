import { useEffect, useRef, useState } from 'react';
import { Pencil } from 'lucide-react';
import { PAGE_NEEDS } from '../../data/queries/first-sync';
import { useParticipant } from '../../data/queries/participants';
import { useKeepOnTablet } from '../../data/online/beyond-scope-hooks';
import { buttonClass } from '../../ui/button';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { BackLink } from '../parts/back-link';
import { DetailRecordState } from '../parts/detail-record-state';
import { useDetailRecord, withScope } from '../parts/use-detail-record';
import { PageHeader } from '../../ui/page-header';
import { RecordHistory } from '../parts/record-history';
import { AttendanceCard } from './attendance-card';
import { CohortEnrollmentsPanel } from './cohort-enrollments-panel';
import { ConsentCard } from './consent-card';
import { BeyondScopeState } from './beyond-scope-state';
import { ParticipantEditForm } from './participant-edit-form';
import { ParticipantProfileView } from './participant-profile-view';
import { QuickStatsPanel } from './quick-stats-panel';

/**
 * Spec 2.7. `id` may be a temporary `local-…` id from before sync: useParticipant follows the
 * alias, so a bookmarked or open page keeps working once the server assigned the real id.
 * During the first sync an unknown id is "not here yet", not 'Participant not found' (issue #9.5).
 * Issue #22.2: a tablet holding only some sites asks the server for an id it does not hold and keeps
 * the participant on the tablet for a day (the live query then shows it); offline it says the
 * participant is not on this tablet and what to do — never 'Participant not found'.
 */
export function ParticipantDetailPage({ id }: { id: string }) {
  const { view: local, readiness } = useDetailRecord(useParticipant(id), PAGE_NEEDS.ParticipantDetail);
  // Not on the tablet: asked of the server when the tablet holds only some sites ('idle' when it
  // holds every site, 'none' when the server has no such participant either: not found).
  const beyond = useKeepOnTablet(id, local.show === 'not-found');
  const view = withScope(local, beyond.status === 'idle' || beyond.status === 'none' ? 'no' : 'maybe');
  // Editing: the form holds the participant as it was when editing began and sends only what
  // changed since then; a change from another device shows in the form, never over it (S18).
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Back from edit mode (saved or cancelled): return focus to 'Edit Profile'.
  useEffect(() => {
    if (editing) wasEditing.current = true;
    else if (wasEditing.current) {
      wasEditing.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  if (view.show !== 'record') {
    return (
      <DetailRecordState
        view={view}
        readiness={readiness}
        loadingLabel="Loading participant"
        notFound="Participant not found"
        back={{ page: 'Participants', label: 'Back to Participants' }}
        beyondScope={(back) => <BeyondScopeState state={beyond} back={back} />}
      />
    );
  }
  const participant = view.record;

  const name = `${participant.first_name ?? ''} ${participant.last_name ?? ''}`.trim();
  return (
    <div className="mx-auto max-w-7xl">
      <BackLink page="Participants" label="Participants" />
      <FirstSyncNotice readiness={readiness} />
      <PageHeader
        title={name}
        subtitle={`UID: ${participant.academy_uid || 'N/A'}`}
        actions={
          editing ? undefined : (
            <button type="button" ref={editButton} className={buttonClass('primary')} onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" className="h-4 w-4" /> Edit Profile
            </button>
          )
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          {editing ? (
            <ParticipantEditForm participant={participant} onDone={() => setEditing(false)} />
          ) : (
            <ParticipantProfileView participant={participant} />
          )}
          {/* Issue #26: who changed this record and when (administrators, online). */}
          <RecordHistory entity="Participant" recordId={participant.id} />
        </div>
        <aside className="space-y-6" aria-label="Enrollments, stats and attendance">
          <CohortEnrollmentsPanel participantId={participant.id} />
          <QuickStatsPanel participantId={participant.id} />
          <AttendanceCard participantId={participant.id} />
          {participant.consent_signed && <ConsentCard consentDate={participant.consent_date} />}
        </aside>
      </div>
    </div>
  );
}
