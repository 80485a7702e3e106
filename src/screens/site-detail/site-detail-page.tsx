import { ArrowLeft } from 'lucide-react';
import { Link } from '@tanstack/react-router';
import { PAGE_NEEDS, useFirstSync } from '../../data/queries/first-sync';
import { useActiveEnrollmentSummary, useCohortsOfSite } from '../../data/queries/cohorts';
import { useSite } from '../../data/queries/sites';
import { useTabletScope } from '../../data/queries/scope';
import { humanize } from '../../domain/format';
import { pagePath } from '../../app/paths';
import { Badge } from '../../ui/badge';
import { buttonClass } from '../../ui/button';
import { NotFoundState } from '../../ui/empty-state';
import { BackLink } from '../parts/back-link';
import { FirstSyncNotice } from '../parts/first-sync-notice';
import { FirstSyncMissingRecord } from '../parts/first-sync-missing-record';
import { holdsSite } from '../parts/scope-absence';
import { PageHeader } from '../../ui/page-header';
import { Skeleton, SkeletonCards } from '../../ui/skeleton';
import { LocationPanel } from './location-panel';
import { SiteBody } from './site-body';

/**
 * Spec 2.13: one site, read-only — location, cohorts, programs, stats and coaches. A site whose
 * cohorts this tablet does not hold (issue #22.2) says so instead of 'No cohorts at this site yet'.
 */
export function SiteDetailPage({ id }: { id: string }) {
  const site = useSite(id);
  // During the first sync an unknown id is "not here yet", not '... not found' (issue #9.5).
  const readiness = useFirstSync(PAGE_NEEDS.SiteDetail);
  const waiting = site === null && readiness.state !== 'ready';
  const cohorts = useCohortsOfSite(id);
  const summary = useActiveEnrollmentSummary(cohorts?.map((c) => c.id));
  const scope = useTabletScope();

  if (site === undefined || (waiting && readiness.state !== 'incomplete')) {
    return (
      <div className="mx-auto max-w-7xl">
        <FirstSyncNotice readiness={readiness} />
        <div role="status" aria-label="Loading site">
          <Skeleton className="mb-6 h-9 w-64" />
          <SkeletonCards count={3} />
        </div>
      </div>
    );
  }
  if (waiting) return <FirstSyncMissingRecord readiness={readiness} list="ProgramsSites" label="Back to Sites" />;
  if (site === null) {
    return (
      <NotFoundState
        title="Site not found"
        action={
          <Link to={pagePath('ProgramsSites')} className={buttonClass('secondary')}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Back to Sites
          </Link>
        }
      />
    );
  }

  return (
    <div className="mx-auto max-w-7xl">
      <BackLink page="ProgramsSites" label="Programs & Sites" />
      <FirstSyncNotice readiness={readiness} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {site.site_name || 'Untitled Site'}
            {/* Capitalised like Facility Type below ('Fire camp', issue #12.10); 'unspecified' is the spec's text. */}
            <Badge tone="blue" className={site.site_type ? 'capitalize' : undefined}>
              {site.site_type ? humanize(site.site_type) : 'unspecified'}
            </Badge>
            <Badge tone={site.active ? 'green' : 'slate'}>{site.active ? 'Active' : 'Inactive'}</Badge>
          </span>
        }
      />
      <LocationPanel site={site} />
      <SiteBody cohorts={scope === undefined ? undefined : cohorts} summary={summary} held={holdsSite(scope, site.id)} />
    </div>
  );
}
