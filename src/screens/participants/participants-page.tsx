import { useMemo, useState } from 'react';
import { UserPlus } from 'lucide-react';
import { useActiveCohortCodesByParticipant } from '../../data/queries/enrollments';
import { useParticipants } from '../../data/queries/participants';
import { filterParticipants, indexParticipants, participantCountLabel, type StatusFilter } from '../../domain/participant-search';
import { Badge } from '../../ui/badge';
import { buttonClass } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { PageLink } from '../../ui/page-link';
import { SkeletonCards } from '../../ui/skeleton';
import { ParticipantFilters } from './participant-filters';
import { ParticipantGrid } from './participant-grid';

/**
 * Spec 2.5. Two reads for the whole list (participants; active cohort codes by participant) and
 * the search key of each participant lower-cased once per data change. A keystroke filters and
 * renders in the same task (issue #11.5): the filter takes ~2 ms over 10,000 rows and the grid
 * renders only the cards in view, while deferring it (useDeferredValue) cost a whole extra frame
 * before the results showed (keystroke → input painted → results rendered → next frame).
 */
export function ParticipantsPage() {
  const participants = useParticipants();
  const codes = useActiveCohortCodesByParticipant();
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');

  const index = useMemo(() => (participants ? indexParticipants(participants) : undefined), [participants]);
  const shown = useMemo(() => (index ? filterParticipants(index, query, status) : undefined), [index, query, status]);
  const filtering = query.trim() !== '' || status !== 'all';

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title="Participants" subtitle="Manage and track all program participants" logo />
      <div className="mb-6 flex flex-col gap-3 lg:flex-row lg:items-center">
        <div className="flex-1">
          <ParticipantFilters query={query} onQuery={setQuery} status={status} onStatus={setStatus} />
        </div>
        {shown && (
          <div aria-live="polite">
            <Badge tone="blue" className="text-sm">
              {participantCountLabel(shown.length)}
            </Badge>
          </div>
        )}
      </div>
      {!shown || !codes ? (
        <SkeletonCards count={6} label="Loading participants" />
      ) : shown.length === 0 ? (
        <EmptyState
          title="No participants found"
          description={filtering ? 'Try another name, email or status.' : undefined}
          action={
            filtering ? undefined : (
              <PageLink page="AddParticipant" className={buttonClass('primary')}>
                <UserPlus aria-hidden="true" className="h-4 w-4" /> Add Participant
              </PageLink>
            )
          }
        />
      ) : (
        <ParticipantGrid participants={shown} codesByParticipant={codes} />
      )}
    </div>
  );
}
