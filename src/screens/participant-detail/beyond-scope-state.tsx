import { ArrowLeft, CloudOff, Loader2 } from 'lucide-react';
import type { KeepOnTabletState } from '../../data/online/beyond-scope-hooks';
import { pagePath } from '../../app/paths';
import { buttonClass } from '../../ui/button';
import { PageLink } from '../../ui/page-link';
import { DetailSkeleton } from './detail-skeleton';

/**
 * ParticipantDetail for a participant this tablet does not hold (issue #22.2): while the server is
 * asked, the skeleton and what is happening; offline, 'Not on this tablet' and what to do; a server
 * error, what it said and a way to try again. ('Participant not found' only when the server says so.)
 */
export function BeyondScopeState({ state }: { state: KeepOnTabletState }) {
  if (state.status === 'checking') return <DetailSkeleton />;
  if (state.status === 'fetching' || state.status === 'found') {
    return (
      <div className="mx-auto max-w-7xl">
        <p role="status" className="mb-6 flex items-center gap-2 rounded-xl border border-blue-200 bg-blue-50 px-4 py-3 text-sm font-medium text-blue-900">
          <Loader2 aria-hidden="true" className="h-4 w-4 shrink-0 animate-spin" />
          Looking for this participant on the server…
        </p>
        <DetailSkeleton />
      </div>
    );
  }
  const back = (
    <PageLink href={pagePath('Participants')} className={buttonClass('secondary')}>
      <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Participants
    </PageLink>
  );
  if (state.status === 'error') {
    return (
      <div className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Not on this tablet</h1>
        <p className="mt-3 text-slate-700">This participant is not on this tablet, and the server could not open it: {state.error}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <button type="button" className={buttonClass('primary')} onClick={state.retry}>
            Try again
          </button>
          {back}
        </div>
      </div>
    );
  }
  // offline
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <CloudOff aria-hidden="true" className="mx-auto mb-3 h-8 w-8 text-slate-400" />
      <h1 className="text-2xl font-bold text-slate-900">Not on this tablet</h1>
      <p className="mt-3 text-slate-700">
        This participant is not on this tablet. Connect to the internet to open it, or add their site under Sync → Sites on this tablet.
      </p>
      <div className="mt-6">{back}</div>
    </div>
  );
}
