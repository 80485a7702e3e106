import { useMemo } from 'react';
import { useListSearch } from '../../shell-api/list-search';
import { UserPlus } from 'lucide-react';
import { useActiveCohortCodesByParticipant } from '../../data/queries/enrollments';
import { PAGE_CORE, PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { useParticipants } from '../../data/queries/participants';
import { useTabletScope } from '../../data/queries/scope';
import { scopePhrase } from '../../domain/scope-phrase';
import { useBeyondScopeSearch } from '../../data/online/beyond-scope-hooks';
import type { Participant } from '../../../shared/entities';
import { filterParticipants, indexParticipants, participantCountLabel, type StatusFilter } from '../../domain/participant-search';
import { Badge } from '../../ui/badge';
import { buttonClass } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { PageHeader } from '../../ui/page-header';
import { pagePath } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';
import { SkeletonCards } from '../../ui/skeleton';
import { ParticipantFilters, STATUS_OPTIONS } from './participant-filters';
import { ParticipantGrid } from './participant-grid';
import { BeyondScopeSection, NOT_ON_TABLET_OFFLINE } from './beyond-scope-section';

/** One search index per list read: the page opened again on the remembered list reuses it. */
const indexes = new WeakMap<readonly Participant[], ReturnType<typeof indexParticipants>>();
function indexOf(participants: readonly Participant[]) {
  let index = indexes.get(participants);
  if (!index) indexes.set(participants, (index = indexParticipants(participants)));
  return index;
}

/**
 * Spec 2.5. Two reads for the whole list (participants; active cohort codes by participant) and
 * the search key of each participant lower-cased once per data change. A keystroke filters and
 * renders in the same task (issue #11.5): the filter takes ~2 ms over 10,000 rows and the grid
 * renders only the cards in view, while deferring it (useDeferredValue) cost a whole extra frame
 * before the results showed (keystroke → input painted → results rendered → next frame).
 * During the first sync (issue #9.5) the list is not the whole truth: skeletons under the progress
 * line while downloading; offline with the download cut off, what arrived (no count badge) under
 * "Not all data is on this tablet yet" — and never 'No participants found' with an Add button.
 */
export function ParticipantsPage() {
  const participants = useParticipants();
  const readiness = useFirstSync(PAGE_NEEDS.Participants);
  // The list is whole once participants and cohorts are here; enrollments (the cohort codes on the
  // cards) may still be downloading under the progress line.
  const ready = useFirstSync(PAGE_CORE.Participants).state === 'ready';
  const partial = readiness.state === 'incomplete';
  const codes = useActiveCohortCodesByParticipant();
  // Issue #12.8: ?q= and ?status= keep the search through opening a participant and coming back.
  const [search, setSearch] = useListSearch('Participants', ['q', 'status'] as const);
  const query = search.q;
  const status = (STATUS_OPTIONS.some((o) => o.value === search.status) ? search.status : 'all') as StatusFilter;
  const setQuery = (q: string) => setSearch('q', q);
  const setStatus = (s: StatusFilter) => setSearch('status', s === 'all' ? '' : s, { now: true });

  const index = participants ? indexOf(participants) : undefined;
  const shown = useMemo(() => (index ? filterParticipants(index, query, status) : undefined), [index, query, status]);
  const filtering = query.trim() !== '' || status !== 'all';
  // Issue #22.4: on a tablet holding some sites, the spec's badge says what it counts beside it.
  const covers = scopePhrase(useTabletScope());
  // Issue #22.2: a tablet holding only some sites also asks the server for the typed text.
  const beyond = useBeyondScopeSearch(query, ready, { mode: 'list', status });

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title="Participants" subtitle="Manage and track all program participants" logo />
      <div className="mb-6 flex flex-col gap-3 lg:flex-row lg:items-center">
        <div className="flex-1">
          <ParticipantFilters query={query} onQuery={setQuery} status={status} onStatus={setStatus} />
        </div>
        {shown && ready && (
          <div aria-live="polite" className="flex flex-wrap items-center gap-2">
            <Badge tone="blue" className="text-sm">
              {participantCountLabel(shown.length)}
            </Badge>
            {covers && (
              <span className="text-sm text-slate-600" data-testid="count-scope">
                {covers}
              </span>
            )}
          </div>
        )}
      </div>
      <FirstSyncNotice readiness={readiness} />
      {!shown || !codes || !(ready || partial) ? (
        <SkeletonCards count={6} label="Loading participants" />
      ) : shown.length === 0 ? (
        // Offline with the download cut off, an empty list says nothing: the notice above speaks.
        partial && !filtering ? null : (
          <EmptyState
            title="No participants found"
            description={beyond.status === 'offline' ? NOT_ON_TABLET_OFFLINE : filtering ? 'Try another name, email or status.' : undefined}
            action={
              filtering ? undefined : (
                <PageLink href={pagePath('AddParticipant')} className={buttonClass('primary')}>
                  <UserPlus aria-hidden="true" className="h-4 w-4" /> Add Participant
                </PageLink>
              )
            }
          />
        )
      ) : (
        <ParticipantGrid participants={shown} codesByParticipant={codes} />
      )}
      {shown && codes && ready && <BeyondScopeSection search={beyond} localEmpty={shown.length === 0} />}
    </div>
  );
}
