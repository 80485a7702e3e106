import type { ReactNode } from 'react';
import { Loader2 } from 'lucide-react';
import type { KeepOnTabletState } from '../../data/online/beyond-scope-hooks';
import { DetailSkeleton } from '../parts/detail-skeleton';
import { NotOnTabletState } from '../parts/scope-absence';

/**
 * ParticipantDetail for a participant this tablet does not hold (issue #22.2): while the server is
 * asked, the skeleton and what is happening; offline, 'Not on this tablet' and what to do; a server
 * error, what it said and a way to try again. ('Participant not found' only when the server says so.)
 */
export function BeyondScopeState({ state, back }: { state: KeepOnTabletState; back: ReactNode }) {
  if (state.status === 'checking') return <DetailSkeleton label="Loading participant" />;
  if (state.status === 'fetching' || state.status === 'found') {
    return (
      <div className="mx-auto max-w-7xl">
        <p role="status" className="mb-6 flex items-center gap-2 rounded-xl border border-blue-200 bg-blue-50 px-4 py-3 text-sm font-medium text-blue-900">
          <Loader2 aria-hidden="true" className="h-4 w-4 shrink-0 animate-spin" />
          Looking for this participant on the server…
        </p>
        <DetailSkeleton label="Loading participant" />
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <NotOnTabletState message={`This participant is not on this tablet, and the server could not open it: ${state.error}`} back={back} retry={state.retry} />
    );
  }
  // offline
  return (
    <NotOnTabletState
      message="This participant is not on this tablet. Connect to the internet to open it, or add their site under Sync → Sites on this tablet."
      back={back}
    />
  );
}
