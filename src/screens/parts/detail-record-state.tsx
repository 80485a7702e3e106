import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { pagePath, type PageName } from '../../shell-api/paths';
import type { PageReadiness } from '../../data/queries/first-sync';
import { unreachable } from '../../domain/unreachable';
import { buttonClass } from '../../ui/button';
import { NotFoundState } from '../../ui/empty-state';
import { DetailSkeleton } from './detail-skeleton';
import { FirstSyncNotice } from './first-sync-notice';
import type { DetailView } from './use-detail-record';

/**
 * Everything a detail page shows instead of its record, the same on the four of them (issue #27):
 * - loading (the record, the first sync, the scope): the first-sync line and the skeleton;
 * - not here yet (offline, first sync cut off, issue #9.5): the first-sync line and the way back,
 *   never '… not found' — it may simply not have arrived;
 * - beyond the tablet's sites (issue #22.2): what the page gives as `beyondScope`, with the way back
 *   ('Not on this tablet', scope-absence.tsx `NotOnTabletState`);
 * - not found: the spec's '… not found' and the way back ('Back to Programs', spec 2.12).
 */
export function DetailRecordState({
  view,
  readiness,
  loadingLabel,
  notFound,
  back,
  beyondScope,
}: {
  view: Exclude<DetailView<unknown>, { show: 'record' }>;
  readiness: PageReadiness;
  /** The skeleton's name for screen readers: 'Loading cohort'. */
  loadingLabel: string;
  /** The spec's not-found title: 'Cohort not found'. */
  notFound: string;
  /** The list to go back to, and the button's words: 'Back to Cohorts'. */
  back: { page: PageName; label: string };
  /** What a record beyond the tablet's sites shows, given the way back. */
  beyondScope?: (back: ReactNode) => ReactNode;
}) {
  const backLink = (
    <Link to={pagePath(back.page)} className={buttonClass('secondary')}>
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      {back.label}
    </Link>
  );
  switch (view.show) {
    case 'loading':
      return (
        <div className="mx-auto max-w-7xl">
          <FirstSyncNotice readiness={readiness} />
          <DetailSkeleton label={loadingLabel} />
        </div>
      );
    case 'not-here-yet':
      return (
        <div className="mx-auto max-w-7xl">
          <FirstSyncNotice readiness={readiness} />
          {backLink}
        </div>
      );
    case 'beyond-scope':
      if (beyondScope) return beyondScope(backLink);
      return <NotFoundState title={notFound} action={backLink} />;
    case 'not-found':
      return <NotFoundState title={notFound} action={backLink} />;
    default:
      return unreachable(view, 'detail view');
  }
}
