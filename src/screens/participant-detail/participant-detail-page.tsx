import { useEffect, useRef, useState } from 'react';
import { ArrowLeft, Pencil } from 'lucide-react';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { useParticipant } from '../../data/queries/participants';
import { useKeepOnTablet } from '../../data/online/beyond-scope-hooks';
import type { Participant } from '../../../shared/entities';
import { buttonClass } from '../../ui/button';
import { NotFoundState } from '../../ui/empty-state';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { FirstSyncMissingRecord } from '../parts/first-sync-missing-record';
import { BackLink } from '../parts/back-link';
import { PageHeader } from '../../ui/page-header';
import { pagePath } from '../../app/paths';
import { PageLink } from '../../ui/page-link';
import { CohortEnrollmentsPanel } from './cohort-enrollments-panel';
import { ConsentCard } from './consent-card';
import { DetailSkeleton } from './detail-skeleton';
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
  const participant = useParticipant(id);
  const readiness = useFirstSync(PAGE_NEEDS.ParticipantDetail);
  const beyond = useKeepOnTablet(id, participant === null && readiness.state === 'ready');
  // The participant as it was when editing began: the edit sends only what changed since then,
  // so a field someone else changed meanwhile (and synced in) is not overwritten.
  const [editBase, setEditBase] = useState<Participant | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Back from edit mode (saved or cancelled): return focus to 'Edit Profile'.
  useEffect(() => {
    if (editBase) wasEditing.current = true;
    else if (wasEditing.current) {
      wasEditing.current = false;
      editButton.current?.focus();
    }
  }, [editBase]);

  if (participant === undefined || (participant === null && (readiness.state === 'checking' || readiness.state === 'downloading'))) {
    return (
      <div className="mx-auto max-w-7xl">
        <FirstSyncNotice readiness={readiness} />
        <DetailSkeleton />
      </div>
    );
  }
  if (participant === null && readiness.state === 'incomplete') {
    return <FirstSyncMissingRecord readiness={readiness} list="Participants" label="Back to Participants" />;
  }
  if (participant === null && beyond.status !== 'idle' && beyond.status !== 'none') {
    return <BeyondScopeState state={beyond} />;
  }
  if (participant === null) {
    return (
      <NotFoundState
        title="Participant not found"
        action={
          <PageLink href={pagePath('Participants')} className={buttonClass('secondary')}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Participants
          </PageLink>
        }
      />
    );
  }

  const name = `${participant.first_name ?? ''} ${participant.last_name ?? ''}`.trim();
  return (
    <div className="mx-auto max-w-7xl">
      <BackLink page="Participants" label="Participants" />
      <FirstSyncNotice readiness={readiness} />
      <PageHeader
        title={name}
        subtitle={`UID: ${participant.academy_uid || 'N/A'}`}
        actions={
          editBase ? undefined : (
            <button type="button" ref={editButton} className={buttonClass('primary')} onClick={() => setEditBase(participant)}>
              <Pencil aria-hidden="true" className="h-4 w-4" /> Edit Profile
            </button>
          )
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          {editBase ? (
            <ParticipantEditForm participant={editBase} onDone={() => setEditBase(null)} />
          ) : (
            <ParticipantProfileView participant={participant} />
          )}
        </div>
        <aside className="space-y-6" aria-label="Enrollments and stats">
          <CohortEnrollmentsPanel participantId={participant.id} />
          <QuickStatsPanel participantId={participant.id} />
          {participant.consent_signed && <ConsentCard consentDate={participant.consent_date} />}
        </aside>
      </div>
    </div>
  );
}
