import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { pagePath, type PageName } from '../../app/paths';
import type { PageReadiness } from '../../data/queries/first-sync';
import { buttonClass } from '../../ui/button';
import { FirstSyncNotice } from './first-sync-notice';

/**
 * A detail page whose record is not on the tablet while the first sync is cut off (issue #9.5): the
 * first-sync notice and the way back to the list, instead of '… not found' (it may simply not have
 * arrived yet). Shared by the cohort, program and site detail pages.
 */
export function FirstSyncMissingRecord({ readiness, list, label }: { readiness: PageReadiness; list: PageName; label: string }) {
  return (
    <div className="mx-auto max-w-7xl">
      <FirstSyncNotice readiness={readiness} />
      <Link to={pagePath(list)} className={buttonClass('secondary')}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        {label}
      </Link>
    </div>
  );
}
